package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.SnapshotData;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.log.TxnLogView;
import dev.warden.server.net.ConnectionRegistry;
import dev.warden.server.net.MemberStatus;
import dev.warden.server.pipeline.OutstandingRequests;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.state.session.SessionTracker;
import java.io.IOException;
import java.util.List;
import java.util.Map;
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
    /** The client connections' watches, dropped with the connections after a restore. */
    private final dev.warden.state.watch.WatchManager watches;
    private final TxnLogView memberLog;
    private final Storage storage;
    private final ConsensusFactory consensus;
    /** Late-bound: the transport needs the driver, and the driver sends through the transport. */
    private final LateBoundPeerSender senderRef = new LateBoundPeerSender();
    private final MemberApplier applier;
    private final MemberDriver driver;
    private final MemberPipeline pipeline;
    /** readonlymode.enabled: whether read-only sessions are served while no leader is found. */
    private final ReadOnlyMode readOnly;
    /** The run-time tree check with the other members; null with digest.enabled=false. */
    private final TreeCheck treeCheck;
    private final MemberSessionChecks sessionChecks;
    private final MemberConfigurations configurations;
    /** Takes the leader's snapshots for SNAP syncs off the driver thread. */
    private final BackgroundSnapshots syncSnapshots;
    private final MemberHistory history;
    /** Runs what the apply thread must not do itself (set in {@link #start}). */
    private volatile ScheduledExecutorService timers;
    private volatile boolean leading;
    private final java.util.concurrent.atomic.AtomicLong roleChanges = new java.util.concurrent.atomic.AtomicLong();
    /** Times this member started looking for a leader, ZooKeeper's looking_count: the core starts out looking. */
    private final java.util.concurrent.atomic.AtomicLong lookingCount = new java.util.concurrent.atomic.AtomicLong(1);
    /** The last role change acted on (driver thread). */
    private RoleChange lastChange;
    private final Clock clock;
    /**
     * False for an observer with syncEnabled=false: its history stays in memory (no log records,
     * no snapshots), and it takes the leader's at every start (see {@link #keepsHistoryOnDisk}).
     */
    private final boolean historyOnDisk;
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
        this.watches = reads.watches();
        this.memberLog = memberLog;
        this.storage = storage;
        this.consensus = consensus;
        String name = "warden-" + myId;
        OutstandingRequests outstanding = new OutstandingRequests(config.globalOutstandingLimit(),
                this::belowOutstandingLimit);
        this.applier = new MemberApplier(stateMachine, reads, this, outstanding, config.snapCount(), random,
                name + "-apply");
        this.syncSnapshots = new BackgroundSnapshots(myId, StateSnapshots.source(() -> storage.take(stateMachine),
                stateMachine));
        ConsensusCore core = consensus.core(syncSnapshots, clock.monotonicMs());
        Configuration startingCommitted = core.configurations().committed();
        long idlePollMs = Math.max(1, config.tickTimeMs() / 10);
        // the late-bound sender forwards batches whole
        this.driver = new MemberDriver(myId, core, senderRef, this,
                new MemberLoop.PrepState(preparer, pending, stateMachine.sessions(), stateMachine.tree(),
                        config.reconfigEnabled(), config.multiAddress().enabled(),
                        Math.max(JoinerReach.MIN_CONTACT_WAIT_MS, config.tickTimeMs()),
                        (long) config.initLimitTicks() * config.tickTimeMs()),
                memberLog::lastZxid, clock, idlePollMs, DRIVER_INBOX_CAPACITY, name + "-driver",
                config.inlineIdleWrites() ? () -> outstanding.count() <= 1 : () -> false);
        syncSnapshots.deliverThrough(driver::runOnDriverThread);
        this.readOnly = new ReadOnlyMode(myId, config.readOnlyModeEnabled(), config.tickTimeMs(), registry,
                this::afterDelay);
        this.pipeline = new MemberPipeline(myId, applier, driver, stateMachine.sessions(), random, outstanding,
                readOnly::active, config.localSessions());
        this.sessionChecks = new MemberSessionChecks(myId, config, clock, driver, stateMachine.sessions(), applier,
                () -> leading, this::isLeading);
        this.treeCheck = !config.digestEnabled() ? null : new TreeCheck(myId, config.members().keySet(),
                config.voterIds(), stateMachine, driver, this::isLeading, command -> timers.execute(command),
                this::abandonHistoryBecause);
        this.history = new MemberHistory(myId, historyOnDisk, memberLog, storage, stateMachine, applier, readOnly,
                treeCheck, this::abandonHistoryBecause);
        this.configurations = new MemberConfigurations(myId, config, consensus, treeCheck, startingCommitted);
    }

    /** Starts the threads and the peer links, and the role-dependent timers on {@code timers}. */
    public void start(ScheduledExecutorService timers) throws IOException {
        this.timers = timers;
        applier.start();
        senderRef.bind(consensus.connect(driver));
        driver.start();
        long tickMs = config.tickTimeMs();
        timers.scheduleAtFixedRate(sessionChecks::tick, tickMs / 2, Math.max(1, tickMs / 2), TimeUnit.MILLISECONDS);
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
                readOnly::active, configurations::committed, senderRef);
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
     * {@code listener} runs after a configuration change commits here, on the thread that
     * publishes committed configurations (after their log line and files). {@link #status()}
     * already shows the new configuration then.
     */
    public void onConfigurationCommitted(Runnable listener) {
        configurations.onCommitted(listener);
    }

    public boolean isServing() {
        return driver.isServing();
    }

    public long leaderId() {
        return driver.leaderId();
    }

    /**
     * Housekeeping requests (container and TTL reaping) run only on the serving leader, and only
     * while it hears from a quorum: cut off, it could not commit them. A node skipped now is
     * still due at the next pass.
     */
    public void submitHousekeeping(Request request) {
        if (isLeading()) {
            driver.runOnDriverThread(() -> {
                if (driver.leaderHeardQuorumWithin(sessionChecks.contactWindowMs())) {
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
        configurations.committed(configuration);
    }

    @Override
    public void configurationsChanged(Configurations configurations) {
        this.configurations.changed(configurations);
    }

    @Override
    public void reachJoiners(Map<Long, QuorumMember> reached) {
        configurations.reachJoiners(reached);
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
        sessionChecks.roleChanged();
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
        sessionChecks.serving();
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
        history.truncateAfter(zxid);
    }

    @Override
    public void abandonHistory() throws IOException {
        history.abandon();
    }

    @Override
    public void resynced() throws IOException {
        history.resynced();
    }

    @Override
    public void installSnapshot(SnapshotData snapshot) throws IOException {
        history.installSnapshot(snapshot);
    }

    @Override
    public void persist(List<Entry> entries) throws IOException {
        history.persist(entries);
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
    public void committed(CommittedEntries entries) {
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
        history.abandonNext(reason);
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
    public void stateRestored() {
        registry.closeAllAfterRestore(watches);
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
        syncSnapshots.close();
        configurations.close();
    }
}
