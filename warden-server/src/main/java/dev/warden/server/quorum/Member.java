package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.Entry;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.SnapshotData;
import dev.warden.consensus.ZabMessage;
import dev.warden.protocol.OpCode;
import dev.warden.server.common.Clock;
import dev.warden.server.config.DynamicConfigWriter;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.ConnectionRegistry;
import dev.warden.server.pipeline.OutstandingRequests;
import dev.warden.server.pipeline.PendingState;
import dev.warden.server.pipeline.Preparer;
import dev.warden.server.pipeline.ReadProcessor;
import dev.warden.server.pipeline.Request;
import dev.warden.server.pipeline.StateMachine;
import dev.warden.server.pipeline.StateSnapshots;
import dev.warden.server.session.SessionTracker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.warden.server.net.MemberStatus;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ensemble member's moving parts, wired together: the driver ({@link MemberDriver}: the
 * threads around the deterministic {@link MemberLoop}, which owns the consensus core, the
 * leader's prep and the handling of each Ready batch), the apply thread and the client-facing
 * {@link MemberPipeline}. It performs the loop's effects on the state, the storage and the
 * clients, and the periodic work that depends on the role: only the leader expires sessions,
 * the others report their sessions' activity to it.
 */
public final class Member implements DriverEffects, ApplyHooks, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Member.class);
    private static final int DRIVER_INBOX_CAPACITY = 65_536;

    /** Storage and state operations a member needs beyond its log. */
    public interface Storage {
        void saveEpochs(EpochState epochs) throws IOException;

        /** Rebuilds {@code state} (already cleared) from disk, up to the log's end. */
        void rebuildState(StateMachine state) throws IOException;

        /** Loads a snapshot sent by the leader into {@code state} (already cleared). */
        void loadSnapshot(StateMachine state, SnapshotData snapshot) throws IOException;

        /** The log starts again after {@code zxid}, and a local snapshot of {@code state} is durable. */
        void restartAfterSnapshot(long zxid, StateMachine state) throws IOException;

        /** A snapshot of {@code state} for a follower that needs SNAP. */
        SnapshotData take(StateMachine state);

        /** Rolls the log and writes a snapshot, off the critical path. */
        void snapshotDue(StateMachine state);

        /**
         * Writes the resync marker with {@code reason}, durably, then sets the log and every
         * snapshot aside, leaving an empty log that starts at zero. The caller empties the state.
         */
        void abandonHistory(String reason) throws IOException;

        /** Removes the resync marker, durably. */
        void resynced() throws IOException;
    }

    private final long myId;
    private final ServerConfig config;
    private final StateMachine stateMachine;
    private final ConnectionRegistry registry;
    private final TxnLogView memberLog;
    private final Storage storage;
    private final ConsensusFactory consensus;
    private final MemberApplier applier;
    private final MemberDriver driver;
    private final MemberPipeline pipeline;
    /** readonlymode.enabled: whether read-only sessions are served while no leader is found. */
    private final ReadOnlyMode readOnly;
    /** The run-time tree check with the other members; null with digest.enabled=false. */
    private final TreeCheck treeCheck;
    /** Runs what the apply thread must not do itself (set in {@link #start}). */
    private volatile ScheduledExecutorService timers;
    private volatile boolean leading;
    private final java.util.concurrent.atomic.AtomicLong roleChanges = new java.util.concurrent.atomic.AtomicLong();
    /** Times this member started looking for a leader, ZooKeeper's looking_count: the core starts out looking. */
    private final java.util.concurrent.atomic.AtomicLong lookingCount = new java.util.concurrent.atomic.AtomicLong(1);
    /** The last role change acted on (driver thread). */
    private RoleChange lastChange;
    private final Clock clock;
    /** Why the core was asked to abandon its history, for the resync marker (driver thread). */
    private String abandonReason;
    /** When the session check last ran (monotonic ms), -1 before the first; timer thread only. */
    private long lastSessionTickMs = -1;
    /**
     * Set while this leader holds expiry back for want of word from a quorum (driver thread
     * only). The check that finds it in touch again expires nothing either: the activity
     * reports that came in with the renewed contact reach the session tracker only once the
     * cycle's batch is performed, after this check.
     */
    private boolean expiryHeldOutOfTouch;
    /** The leader's account of its learners, for the lines it logs as they come and go (driver thread). */
    private final LearnerContact learners;
    /** The newest configuration known committed, for the admin figures and JMX; any thread reads it. */
    private volatile EnsembleConfig committedConfiguration;
    /** The members of every configuration the core knows (driver thread). */
    private Map<Long, QuorumMember> knownMembers;
    /** Members a waiting reconfig adds, dialled by this leader before any configuration names them (driver thread). */
    private Map<Long, QuorumMember> joiners = new HashMap<>();
    /**
     * False for an observer with syncEnabled=false: its history stays in memory (no log records,
     * no snapshots), and it takes the leader's at every start (see {@link #keepsHistoryOnDisk}).
     */
    private final boolean historyOnDisk;
    /** Told after a configuration change commits (on the driver thread: it must only hand off). */
    private volatile Runnable configurationListener = () -> { };
    /** Told after each change of role, leader or serving (on the driver thread: it must only hand off). */
    private volatile Runnable roleListener = () -> { };

    public Member(ServerConfig config, Clock clock, StateMachine stateMachine, PendingState pending,
                  Preparer preparer, ReadProcessor reads, ConnectionRegistry registry, TxnLogView memberLog,
                  Storage storage, ConsensusFactory consensus, RandomGenerator random) throws IOException {
        this.myId = config.serverId();
        this.config = config;
        this.historyOnDisk = keepsHistoryOnDisk(config);
        this.clock = clock;
        this.stateMachine = stateMachine;
        this.registry = registry;
        this.memberLog = memberLog;
        this.storage = storage;
        this.consensus = consensus;
        this.knownMembers = new HashMap<>(config.members());
        String name = "warden-" + myId;
        OutstandingRequests outstanding = new OutstandingRequests(config.globalOutstandingLimit(),
                this::belowOutstandingLimit);
        this.applier = new MemberApplier(stateMachine, reads, this, outstanding, config.snapCount(), random,
                name + "-apply");
        ConsensusCore core = consensus.core(StateSnapshots.source(() -> storage.take(stateMachine), stateMachine),
                clock.monotonicMs());
        // the core starts from the files' configuration or a newer one its snapshot and log show
        Configuration startingCommitted = core.configurations().committed();
        this.committedConfiguration = startingCommitted.data().length == 0 ? config.ensembleConfig()
                : EnsembleConfig.fromConfiguration(startingCommitted);
        long idlePollMs = Math.max(1, config.tickTimeMs() / 10);
        // field initializers have run by now, so senderRef is set (it forwards batches whole)
        this.driver = new MemberDriver(myId, core, senderRef, this,
                new MemberLoop.PrepState(preparer, pending, stateMachine.sessions(), stateMachine.tree(),
                        config.reconfigEnabled(), config.multiAddress().enabled(),
                        Math.max(JoinerReach.MIN_CONTACT_WAIT_MS, config.tickTimeMs()),
                        (long) config.initLimitTicks() * config.tickTimeMs()),
                memberLog::lastZxid, clock, idlePollMs, DRIVER_INBOX_CAPACITY, name + "-driver");
        this.readOnly = new ReadOnlyMode(myId, config.readOnlyModeEnabled(), config.tickTimeMs(), registry,
                this::afterDelay);
        this.pipeline = new MemberPipeline(myId, applier, driver, stateMachine.sessions(), random, outstanding,
                readOnly::active, config.localSessions());
        this.learners = new LearnerContact(myId, config.voterIds(), config.observerIds(),
                (long) config.syncLimitTicks() * config.tickTimeMs());
        this.treeCheck = !config.digestEnabled() ? null : new TreeCheck(myId, config.members().keySet(),
                config.voterIds(), stateMachine, driver, this::isLeading, command -> timers.execute(command),
                this::abandonHistoryBecause);
    }

    /** Late-bound: the transport needs the driver, and the driver sends through the transport. */
    private volatile PeerSender sender;
    private final PeerSender senderRef = new PeerSender() {
        @Override
        public void send(long to, ZabMessage message) {
            PeerSender current = sender;
            if (current != null) {
                current.send(to, message);
            }
        }

        @Override
        public void sendAll(List<Outbound> messages) {
            PeerSender current = sender;
            if (current != null) {
                current.sendAll(messages);
            }
        }
    };

    /** Starts the threads and the peer links, and the role-dependent timers on {@code timers}. */
    public void start(ScheduledExecutorService timers) throws IOException {
        this.timers = timers;
        applier.start();
        sender = consensus.connect(driver);
        driver.start();
        long tickMs = config.tickTimeMs();
        timers.scheduleAtFixedRate(this::sessionTick, tickMs / 2, Math.max(1, tickMs / 2), TimeUnit.MILLISECONDS);
        if (treeCheck != null) {
            applier.run(treeCheck::noteState);
            timers.scheduleWithFixedDelay(() -> driver.runOnDriverThread(() -> treeCheck.publish(clock.monotonicMs())),
                    TreeCheck.PUBLISH_INTERVAL_MS, TreeCheck.PUBLISH_INTERVAL_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** The sessions this member knows: every global one and its own local ones. */
    SessionTracker sessions() {
        return stateMachine.sessions();
    }

    public MemberPipeline pipeline() {
        return pipeline;
    }

    /** What srvr/stat/mntr report about this member. */
    public MemberStatus status() {
        return new MemberStatusView(config, driver, this::isLeading,
                () -> treeCheck == null ? 0 : treeCheck.mismatchCount(), lookingCount::get, applier::queueDepth,
                readOnly::active, () -> committedConfiguration);
    }

    public Role role() {
        return driver.role();
    }

    /**
     * {@code listener} runs after each change of role, leader or serving, on the driver thread:
     * it must only hand the news on (the JMX beans move on another thread).
     */
    public void onRoleChange(Runnable listener) {
        roleListener = listener;
    }

    /**
     * {@code listener} runs after a configuration change commits here, on the driver thread: it
     * must only hand the news on. {@link #status()} already shows the new configuration then.
     */
    public void onConfigurationCommitted(Runnable listener) {
        configurationListener = listener;
    }

    public boolean isServing() {
        return driver.isServing();
    }

    public long leaderId() {
        return driver.leaderId();
    }

    /**
     * Leader: expire sessions whose time is up (on the driver thread, while it hears a quorum).
     * Others: tell the leader which sessions were active.
     */
    private void sessionTick() {
        try {
            long nowMs = clock.monotonicMs();
            long sinceLastTickMs = lastSessionTickMs < 0 ? 0 : nowMs - lastSessionTickMs;
            lastSessionTickMs = nowMs;
            if (!driver.isServing()) {
                return;
            }
            expireLocalSessions();
            if (leading && sinceLastTickMs > (long) config.syncLimitTicks() * config.tickTimeMs()) {
                // This process stood still longer than followers wait for their leader (SIGSTOP, a
                // long GC pause): the clients' silence was partly its own, and it may no longer
                // lead. Expiring now would tell reconnecting clients their session is gone though
                // the ensemble never decided so. Start every session's timeout afresh instead.
                log.warn("member {}: session checks stalled for {} ms; every session gets a fresh timeout",
                        myId, sinceLastTickMs);
                stateMachine.sessions().touchAllOpen();
                return;
            }
            if (leading) {
                driver.runOnDriverThread(this::expireSessionsWhileInTouch);
            } else {
                List<Long> active = stateMachine.sessions().drainActive();
                if (!active.isEmpty()) {
                    driver.sendToLeader(AppMessage.encode(new AppMessage.Activity(active)));
                }
            }
        } catch (RuntimeException e) {
            log.error("session tick failed", e);
        }
    }

    /** Local sessions are this member's alone: it expires them itself, whatever its role. */
    private void expireLocalSessions() {
        for (long sessionId : stateMachine.sessions().takeExpiredLocal()) {
            log.info("expiring local session 0x{}", Long.toHexString(sessionId));
            applier.localSessionExpired(sessionId);
        }
    }

    /**
     * Driver thread: the leader expires sessions only while it hears from a quorum of voters.
     * Its followers report their sessions' activity every tickTime/2; a leader that has not
     * heard from them lacks what it needs to expire their sessions, and a closeSession it
     * proposed could not commit while it is cut off. It runs after the cycle's tick, so a
     * leader resumed after a pause longer than syncLimit has already stepped down here.
     */
    private void expireSessionsWhileInTouch() {
        if (!isLeading()) {
            return;
        }
        for (LearnerContact.Line line : learners.update(
                driver.peersHeardWithin((long) config.syncLimitTicks() * config.tickTimeMs()))) {
            if (line.warning()) {
                log.warn(line.text());
            } else {
                log.info(line.text());
            }
        }
        if (!driver.leaderHeardQuorumWithin(contactWindowMs())) {
            if (!expiryHeldOutOfTouch) {
                log.warn("member {}: no word from a quorum of voters within {} ms; no session is expired until "
                        + "it hears one", myId, contactWindowMs());
            }
            expiryHeldOutOfTouch = true;
            return;
        }
        if (expiryHeldOutOfTouch) {
            expiryHeldOutOfTouch = false;
            log.info("member {}: hears a quorum again; session expiry resumes at the next check", myId);
            return;
        }
        for (long sessionId : stateMachine.sessions().takeExpired()) {
            log.info("expiring session 0x{}", Long.toHexString(sessionId));
            driver.prepareHousekeeping(new Request(null, sessionId, 0, OpCode.CLOSE_SESSION, null));
        }
    }

    /**
     * How recently a leader must have heard from a quorum to decide on its own authority: one
     * tick, two of its followers' heartbeat answers and activity reports.
     */
    private long contactWindowMs() {
        return config.tickTimeMs();
    }

    /**
     * Housekeeping requests (container and TTL reaping) run only on the serving leader, and only
     * while it hears from a quorum: cut off, it could not commit them. A node skipped now is
     * still due at the next pass.
     */
    public void submitHousekeeping(Request request) {
        if (isLeading()) {
            driver.runOnDriverThread(() -> {
                if (driver.leaderHeardQuorumWithin(contactWindowMs())) {
                    driver.prepareHousekeeping(request);
                }
            });
        }
    }

    /** Drops log segments no longer needed after a snapshot at {@code zxid}, on the driver thread. */
    public void purgeLogUpTo(long zxid) {
        driver.runOnDriverThread(() -> {
            try {
                memberLog.purgeUpTo(zxid);
            } catch (IOException e) {
                log.warn("member {}: purging the log up to 0x{} failed: {}", myId, Long.toHexString(zxid), e.toString());
            }
        });
    }

    /** The last zxid this member's state machine applied. */
    public long lastAppliedZxid() {
        return stateMachine.tree().lastAppliedZxid();
    }

    /** How many times role, leader or service changed (an epoch change alone does not count). */
    public long roleChanges() {
        return roleChanges.get();
    }

    public boolean isLeading() {
        return leading && driver.isServing();
    }

    // ---- DriverEffects (driver thread) --------------------------------------------------------

    @Override
    public void configurationCommitted(Configuration configuration) throws IOException {
        EnsembleConfig committed = EnsembleConfig.fromConfiguration(configuration);
        committedConfiguration = committed;
        log.info("member {}: configuration 0x{} committed: {}", myId, Long.toHexString(committed.version()),
                committed.memberText().strip().replace('\n', ' '));
        if (config.configFile() != null) {
            DynamicConfigWriter.write(config.configFile(), myId, committed);
        }
        if (treeCheck != null) {
            treeCheck.configurationChanged(committed.members().keySet(), committed.voterIds());
        }
        configurationListener.run();
    }

    @Override
    public void configurationsChanged(Configurations configurations) {
        Map<Long, QuorumMember> all = new HashMap<>();
        all.put(myId, config.self());
        List<Configuration> known = new ArrayList<>(configurations.logged());
        known.add(0, configurations.committed());
        for (Configuration configuration : known) {
            all.putAll(EnsembleConfig.fromConfiguration(configuration).members());
        }
        // a joiner dialled for a reconfig is linked as a member once a configuration names it
        joiners.keySet().removeAll(all.keySet());
        knownMembers = all;
        linkMembers();
    }

    @Override
    public void reachJoiners(Map<Long, QuorumMember> reached) {
        joiners = new HashMap<>(reached);
        linkMembers();
    }

    private void linkMembers() {
        Map<Long, QuorumMember> all = new HashMap<>(joiners);
        all.putAll(knownMembers);
        consensus.membersChanged(all);
    }

    @Override
    public void roleChanged(RoleChange change, long nextZxid) {
        RoleChange previous = lastChange;
        lastChange = change;
        if (previous != null && previous.role() == change.role() && previous.leaderId() == change.leaderId()
                && previous.serving() == change.serving()) {
            // Only the epoch moved (the leader's zxid counter ran out): same leader, service goes on.
            log.info("member {}: now in epoch {}", myId, change.epoch());
            return;
        }
        if (!historyOnDisk && (change.role() == Role.FOLLOWING || change.role() == Role.LEADING)) {
            // A voter must have on disk what it acknowledges, and this member's disk holds nothing.
            // Stopping here, before anything is acknowledged, is safe: restarted with its line now
            // a participant's, it keeps its history on disk.
            throw new IllegalStateException("member " + myId + " was an observer with syncEnabled=false, which"
                    + " keeps no history on disk, and the configuration now makes it a voter; it stops. Restart it:"
                    + " as a participant it writes its log and snapshots");
        }
        roleChanges.incrementAndGet();
        if (treeCheck != null) {
            treeCheck.newTerm();
        }
        learners.reset();
        // the core starts out looking (counted at start); count each later return to looking
        Role previousRole = previous == null ? Role.LOOKING : previous.role();
        if (change.role() == Role.LOOKING && previousRole != Role.LOOKING) {
            lookingCount.incrementAndGet();
        }
        log.info(MemberLogLines.roleChange(myId, change));
        roleListener.run();
        if (!change.serving()) {
            if (change.role() != Role.LOOKING) {
                // before the connections close, so none is taken read-only in between
                readOnly.end("it found leader " + change.leaderId());
            }
            stopServing();
            if (change.role() == Role.LOOKING) {
                readOnly.lookingStarted();
            }
            return;
        }
        readOnly.serving();
        stateMachine.sessions().refreshAll();
        expiryHeldOutOfTouch = false;
        if (change.role() == Role.LEADING) {
            leading = true;
            stateMachine.sessions().recordActivity(false);
        } else {
            leading = false;
            stateMachine.sessions().recordActivity(true);
        }
        pipeline.setServing(true);
        if (treeCheck != null) {
            // after leading is set: a new leader's first digest is of the state it leads with
            applier.run(treeCheck::noteState);
        }
    }

    /** Runs {@code task} on the timer thread after {@code delayMs}; nothing before {@link #start}. */
    private void afterDelay(long delayMs, Runnable task) {
        ScheduledExecutorService current = timers;
        if (current != null) {
            current.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private void stopServing() {
        pipeline.setServing(false);
        leading = false;
        // Clients reconnect to a member that serves; their queued requests die with the connections.
        registry.closeAll();
        applier.reset();
    }

    @Override
    public void saveEpochs(EpochState epochs) throws IOException {
        storage.saveEpochs(epochs);
    }

    @Override
    public void truncateAfter(long zxid) throws IOException {
        if (!historyOnDisk) {
            // The state cannot be rebuilt from a disk that holds no history: take the leader's
            // snapshot instead. Until it arrives the state is a committed prefix (an observer
            // applies only what the leader committed), so reads stay merely behind.
            abandonHistoryBecause("a TRUNC to 0x" + Long.toHexString(zxid) + " reached an observer that keeps"
                    + " no history on disk (syncEnabled=false)");
            return;
        }
        memberLog.truncateAfter(zxid);
        // The core counts everything up to zxid as applied after a TRUNC, so the state must end
        // exactly there. It can be behind as well as ahead: a former leader logged its last
        // proposals but never saw them committed, and the new leader kept them.
        rebuild(zxid, () -> storage.rebuildState(stateMachine));
    }

    @Override
    public void abandonHistory() throws IOException {
        String reason = abandonReason != null ? abandonReason : "its state could not be vouched for";
        abandonReason = null;
        log.warn("member {} gives up its history ({}): it sets its log and snapshots aside, takes a copy of the"
                + " leader's, and counts toward no quorum until it has", myId, reason);
        // the marker first: a crash after it leaves a member that knows it must resynchronize
        storage.abandonHistory(reason);
        rebuild(-1, () -> { });
    }

    @Override
    public void resynced() throws IOException {
        storage.resynced();
        log.info("member {} holds the leader's history again and counts toward quorums", myId);
    }

    @Override
    public void installSnapshot(SnapshotData snapshot) throws IOException {
        rebuild(-1, () -> storage.loadSnapshot(stateMachine, snapshot));
        if (historyOnDisk) {
            storage.restartAfterSnapshot(snapshot.zxid(), stateMachine);
        } else {
            memberLog.restartAfter(snapshot.zxid()); // no snapshot file: the log view starts after it
        }
    }

    private interface StateWork {
        void run() throws IOException;
    }

    /**
     * Clears and rebuilds the state on the apply thread, after every commit handed to it before,
     * unless the state has applied exactly {@code unlessAtZxid} by then.
     */
    private void rebuild(long unlessAtZxid, StateWork work) throws IOException {
        // before the apply thread touches the tree: no read-only read sees it half rebuilt
        readOnly.treeRebuilt();
        IOException[] failure = new IOException[1];
        applier.runAndWait(() -> {
            if (stateMachine.tree().lastAppliedZxid() == unlessAtZxid) {
                return;
            }
            stateMachine.clear();
            if (treeCheck != null) {
                treeCheck.reset();
            }
            try {
                work.run();
                if (treeCheck != null) {
                    treeCheck.noteState();
                }
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    @Override
    public void persist(List<Entry> entries) throws IOException {
        if (historyOnDisk) {
            memberLog.appendDurably(entries);
        }
        // else: published to the core (logged) from memory only; an observer acknowledges nothing
    }

    /**
     * Whether this member writes its history to disk: every member but an observer with
     * syncEnabled=false (ZooKeeper's zookeeper.observer.syncEnabled), which keeps it in memory
     * and takes the leader's again at every start.
     */
    public static boolean keepsHistoryOnDisk(ServerConfig config) {
        return config.observerSyncEnabled() || !config.isEnsemble() || !config.self().observer();
    }

    @Override
    public void logged(List<Entry> entries) {
        memberLog.published(entries);
    }

    @Override
    public void committed(List<Entry> entries) {
        applier.committed(entries);
    }

    @Override
    public void memberMessage(long from, AppMessage decoded) {
        if (decoded instanceof AppMessage.Failed failed) {
            applier.refused(failed);
        } else if (decoded instanceof AppMessage.Activity activity) {
            for (long sessionId : activity.sessionIds()) {
                stateMachine.sessions().touch(sessionId);
            }
        } else if (treeCheck == null) {
            return; // digest.enabled=false: the tree check is off on this member
        } else if (decoded instanceof AppMessage.Digest digest) {
            applier.run(() -> treeCheck.leaderDigest(digest.zxid(), digest.digest()));
        } else if (decoded instanceof AppMessage.DigestReport report) {
            treeCheck.report(from, report.zxid(), report.digest());
        } else if (decoded instanceof AppMessage.Resync resync) {
            treeCheck.resyncOrdered(resync.zxid(), resync.digest());
        }
    }

    /** Driver thread: this member's state diverged; it gives up its history (see {@link #abandonHistory()}). */
    private void abandonHistoryBecause(String reason) {
        abandonReason = reason;
        driver.abandonHistory();
    }

    @Override
    public void syncsDone(List<Long> tokens) {
        for (long token : tokens) {
            applier.syncDone(token, true);
        }
    }

    @Override
    public void syncRefused(long token) {
        applier.syncDone(token, false);
    }

    @Override
    public void failed(String reason, Throwable cause) {
        log.error("member {} stops serving: {}", myId, reason);
        readOnly.end("the member failed");
        stopServing();
    }

    @Override
    public void applyFailed(Throwable cause) {
        // Reads would be answered from a tree that no longer moves, and writes never answered:
        // fail the driver too, on its own thread and by its own path, so it stops serving and
        // the peers drop this member.
        driver.runOnDriverThread(() -> {
            throw new IllegalStateException("the apply thread failed: " + cause, cause);
        });
    }

    // ---- ApplyHooks (apply thread) ------------------------------------------------------------

    @Override
    public void applied(long zxid) {
        driver.applied(zxid);
        if (treeCheck != null) {
            treeCheck.applied(zxid);
        }
    }

    @Override
    public void sessionClosed(long sessionId) {
        registry.sessionClosed(sessionId);
    }

    @Override
    public void belowOutstandingLimit() {
        registry.resumeAll();
    }

    @Override
    public void snapshotDue() {
        if (historyOnDisk) {
            storage.snapshotDue(stateMachine);
        }
    }

    /** Stops serving, then the driver (which stops acknowledging), the peer links and the threads. */
    @Override
    public void close() {
        readOnly.end("the member stops");
        pipeline.setServing(false);
        driver.stop();
        consensus.close();
        applier.close();
        driver.close();
    }
}
