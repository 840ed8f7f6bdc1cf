package dev.warden.server.quorum;

import dev.warden.consensus.Role;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.MemberStatus;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** A member's mode and, on the leader, its learner figures, for srvr/stat/mntr. */
final class MemberStatusView implements MemberStatus {
    private final ServerConfig config;
    private final MemberDriver driver;
    private final BooleanSupplier leading;
    private final LongSupplier digestMismatches;
    private final LongSupplier lookingCount;
    private final java.util.function.IntSupplier applyQueueDepth;
    private final BooleanSupplier readOnly;
    private final java.util.function.Supplier<dev.warden.server.config.EnsembleConfig> configuration;
    private final dev.warden.server.peer.PeerSender peers;

    MemberStatusView(ServerConfig config, MemberDriver driver, BooleanSupplier leading, LongSupplier digestMismatches,
                     LongSupplier lookingCount, java.util.function.IntSupplier applyQueueDepth,
                     BooleanSupplier readOnly,
                     java.util.function.Supplier<dev.warden.server.config.EnsembleConfig> configuration,
                     dev.warden.server.peer.PeerSender peers) {
        this.peers = peers;
        this.readOnly = readOnly;
        this.configuration = configuration;
        this.config = config;
        this.driver = driver;
        this.leading = leading;
        this.digestMismatches = digestMismatches;
        this.lookingCount = lookingCount;
        this.applyQueueDepth = applyQueueDepth;
    }

    @Override
    public java.util.Map<String, Long> queueDepths() {
        java.util.Map<String, Long> depths = new java.util.LinkedHashMap<>();
        depths.put("driver_inbox", (long) driver.inboxDepth());
        depths.put("log_batches_in_flight", (long) driver.figures().logBatchesInFlight());
        depths.put("apply_queue", (long) applyQueueDepth.getAsInt());
        return depths;
    }

    @Override
    public Optional<dev.warden.server.config.EnsembleConfig> configuration() {
        return Optional.of(configuration.get());
    }

    @Override
    public long digestMismatches() {
        return digestMismatches.getAsLong();
    }

    @Override
    public long lookingCount() {
        return lookingCount.getAsLong();
    }

    @Override
    public TransactionCounts transactionCounts() {
        return driver.figures().transactionCounts();
    }

    @Override
    public long diffSyncs() {
        return driver.figures().diffSyncs();
    }

    @Override
    public long snapSyncs() {
        return driver.figures().snapSyncs();
    }

    @Override
    public String mode() {
        return modeOf(driver.role());
    }

    @Override
    public boolean serving() {
        return driver.isServing();
    }

    @Override
    public boolean readOnly() {
        return readOnly.getAsBoolean();
    }

    /**
     * One reading of the driver's standing, so a member changing role never reports a mix; a
     * member serving read-only sessions reports ZooKeeper's "read-only".
     */
    @Override
    public Optional<String> servingMode() {
        MemberStanding now = driver.standing();
        if (now.serving()) {
            return Optional.of(modeOf(now.role()));
        }
        return readOnly.getAsBoolean() ? Optional.of(READ_ONLY_MODE) : Optional.empty();
    }

    @Override
    public java.util.OptionalLong leaderId() {
        MemberStanding now = driver.standing();
        long id = now.leaderId();
        return now.role() == Role.LOOKING || id <= 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(id);
    }

    @Override
    public Optional<Reign> reign() {
        MemberStanding now = driver.standing();
        return now.role() == Role.LOOKING || now.leaderId() <= 0 ? Optional.empty()
                : Optional.of(new Reign(now.leaderId(), now.epoch(), now.electedAtMs()));
    }

    @Override
    public Optional<String> zabState() {
        MemberStanding now = driver.standing();
        if (now.role() == Role.LOOKING) {
            return Optional.of("ELECTION");
        }
        return Optional.of(now.serving() ? "BROADCAST" : "SYNCHRONIZATION");
    }

    private String modeOf(Role role) {
        return switch (role) {
            case LEADING -> "leader";
            case FOLLOWING -> "follower";
            case OBSERVING -> "observer";
            case LOOKING -> config.observerIds().contains((long) config.serverId()) ? "observer" : "follower";
        };
    }

    @Override
    public java.util.Map<Long, Long> followerLag() {
        return leading.getAsBoolean() ? driver.figures().followerLag() : java.util.Map.of();
    }

    @Override
    public java.util.OptionalLong observerMasterId() {
        MemberStanding now = driver.standing();
        long master = driver.figures().learnerMasterId();
        return now.role() == Role.OBSERVING && now.serving() && master > 0 ? java.util.OptionalLong.of(master)
                : java.util.OptionalLong.empty();
    }

    /**
     * Checked here against the committed configuration, as the core checks it again when it acts:
     * the request reaches the core on its own thread, after this returns.
     */
    @Override
    public boolean requestLearnerMaster(long memberId) {
        dev.warden.server.config.EnsembleConfig committed = configuration.get();
        long me = config.serverId();
        boolean possible = config.observer().masterPort() > 0 && committed.observerIds().contains(me)
                && memberId != me && committed.voterIds().contains(memberId);
        if (possible) {
            driver.requestLearnerMaster(memberId);
        }
        return possible;
    }

    @Override
    public java.util.OptionalInt observersServed() {
        MemberStanding now = driver.standing();
        return now.role() == Role.FOLLOWING && now.serving() && config.observer().masterPort() > 0
                ? java.util.OptionalInt.of(driver.figures().observersServed()) : java.util.OptionalInt.empty();
    }

    @Override
    public java.util.Map<Long, String> learnerConnections() {
        java.util.Map<Long, String> connections = new java.util.TreeMap<>();
        for (long id : driver.figures().learnersLinked()) {
            peers.connectedFrom(id).ifPresent(from -> connections.put(id,
                    from.getAddress().getHostAddress() + ":" + from.getPort()));
        }
        return connections;
    }

    @Override
    public boolean terminateLearnerConnection(long memberId) {
        if (!driver.figures().learnersLinked().contains(memberId)) {
            return false;
        }
        peers.dropConnections(memberId);
        return true;
    }

    /** Learners are the members heard from within syncLimit ticks (the core keeps its own view private). */
    @Override
    public Optional<LeaderFigures> leaderFigures() {
        if (!leading.getAsBoolean()) {
            return Optional.empty();
        }
        Set<Long> heard = driver.peersHeardWithin((long) config.syncLimitTicks() * config.tickTimeMs());
        int followers = 0;
        int observers = 0;
        for (long id : heard) {
            if (config.observerIds().contains(id)) {
                observers++;
            } else if (config.voterIds().contains(id)) {
                followers++;
            }
        }
        return Optional.of(new LeaderFigures(followers + observers, followers, observers, 0,
                config.voterIds().size() / 2 + 1));
    }
}
