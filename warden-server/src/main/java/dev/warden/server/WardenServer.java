package dev.warden.server;

import dev.warden.server.threads.ServerThreads;
import dev.warden.protocol.DeleteContainerRequest;
import dev.warden.protocol.OpCode;
import dev.warden.server.net.ClientTransport;
import dev.warden.server.net.ConnectionRegistry;
import dev.warden.server.net.ServerContext;
import dev.warden.server.net.ServerStats;
import dev.warden.server.net.MemberStatus;
import dev.warden.server.pipeline.PendingState;
import dev.warden.server.pipeline.Pipeline;
import dev.warden.server.pipeline.PipelineListener;
import dev.warden.server.pipeline.Preparer;
import dev.warden.server.pipeline.ReadProcessor;
import dev.warden.server.pipeline.Reconfigurer;
import dev.warden.server.pipeline.RequestPipeline;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.Configurations;
import dev.warden.server.quorum.ConsensusFactory;
import dev.warden.server.quorum.StartingConfigurations;
import dev.warden.server.quorum.EpochFiles;
import dev.warden.server.quorum.Member;
import dev.warden.server.quorum.TxnLogView;
import dev.warden.server.quorum.ZabConsensus;
import dev.warden.server.pipeline.Request;
import dev.warden.server.pipeline.StateMachine;
import dev.warden.server.session.SessionTracker;
import dev.warden.server.tree.DataNode;
import dev.warden.server.tree.DataTree;
import dev.warden.server.tree.NodeOwner;
import dev.warden.server.watch.WatchManager;
import dev.warden.server.recovery.DataDirRecovery;
import dev.warden.server.recovery.DataLayout;
import dev.warden.server.recovery.ResyncMarker;
import dev.warden.storage.FileChannelFactory;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone Warden server: recovers from its data directory, then serves the client port.
 * Several may run in one JVM: nothing here is static.
 */
public final class WardenServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WardenServer.class);

    private final ServerConfig config;
    private final Clock clock;
    private final TxnLog txnLog;
    private final SnapshotStore snapshots;
    private final StateMachine stateMachine;
    private final RequestPipeline pipeline;
    /** Null for a standalone server. */
    private final Member member;
    private final ConsensusFactory consensus;
    private final ConnectionRegistry registry;
    private final ScheduledExecutorService timers;
    /** Its own thread: a snapshot of a large tree must not delay session expiry ticks. */
    private final java.util.concurrent.ExecutorService snapshotter;
    private final AtomicBoolean snapshotRunning = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private ClientTransport transport;

    private WardenServer(ServerConfig config, Clock clock, FileChannelFactory logChannels,
                         ConsensusFactory.Provider consensusProvider) throws IOException {
        ZooKeeperDataCheck.refuseZooKeeperData(config);
        this.config = config;
        this.clock = clock;
        Files.createDirectories(config.dataDir());
        Files.createDirectories(config.dataLogDir());
        SessionTracker sessions = new SessionTracker(clock, config.tickTimeMs(), config.serverId());
        DataTree tree = new DataTree();
        this.stateMachine = new StateMachine(tree, sessions);
        DataLayout layout = new DataLayout(config.dataDir(), config.dataLogDir());
        TxnLogOptions defaults = TxnLogOptions.defaults();
        TxnLogOptions logOptions = new TxnLogOptions(config.forceSync(), config.preAllocSizeBytes(),
                defaults.segmentMaxBytes(), logChannels, config.fsyncWarningThresholdMs(), config.txnLogDirectIo());
        DataDirRecovery.OnUnprovable onUnprovable = config.isEnsemble() ? DataDirRecovery.OnUnprovable.RESYNC
                : config.discardUnprovable() ? DataDirRecovery.OnUnprovable.DISCARD_UNPROVABLE
                : DataDirRecovery.OnUnprovable.REFUSE;
        DataDirRecovery.Outcome recovered = DataDirRecovery.recover(layout, logOptions, stateMachine, onUnprovable,
                clock.wallTimeMs());
        this.txnLog = recovered.log();
        this.snapshots = new SnapshotStore(layout.snapshotsDir());
        WatchManager watches = new WatchManager(config.maxWatchesPerSession());
        tree.setEvents(watches::trigger);
        this.registry = new ConnectionRegistry(config.maxClientCnxns());
        PendingState pending = new PendingState(tree);
        SecureRandom random = new SecureRandom();
        long lastZxid = Math.max(tree.lastAppliedZxid(), txnLog.lastAppendedZxid());
        Preparer preparer = new Preparer(pending, sessions, clock, random, config.extendedTypesEnabled(), lastZxid);
        preparer.reconfigurer(Reconfigurer.standalone(config.reconfigEnabled()));
        ReadProcessor reads = new ReadProcessor(tree, watches);
        this.timers = ServerThreads.timer("warden-timers-" + config.clientPort());
        this.snapshotter = ServerThreads.single("warden-snapshot-" + config.clientPort());
        if (config.isEnsemble()) {
            try {
                EpochFiles epochFiles = EpochFiles.defaults();
                EpochState epochs = epochFiles.load(config.dataDir());
                // Recovery left one unbroken log: every entry after its start is in it.
                TxnLogView logView = new TxnLogView(txnLog, txnLog.startZxid());
                boolean resyncRequired = ResyncMarker.exists(config.dataDir());
                Configurations configurations = StartingConfigurations.find(config.ensembleConfig().toConfiguration(), tree, logView);
                if (tree.configZxid() <= config.configVersion()) {
                    // no change since the files were written: /zookeeper/config shows them
                    tree.setConfigData(ensembleConfigText(config).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                this.consensus = consensusProvider.create(new ConsensusFactory.Resources(config, txnLog, logView,
                        epochs, clock, resyncRequired, configurations));
                MemberDiskStorage storage = new MemberDiskStorage(config.dataDir(), epochFiles, snapshots, txnLog,
                        snapshotter, logView);
                preparer.limitCounter(consensus.zxidCounterLimit());
                this.member = new Member(config, clock, stateMachine, pending, preparer, reads, registry,
                        logView, storage, consensus, random);
            } catch (IOException | RuntimeException e) {
                txnLog.close();
                throw e;
            }
            this.pipeline = member.pipeline();
        } else {
            this.member = null;
            this.consensus = null;
            Pipeline standalone = new Pipeline(preparer, pending, txnLog, stateMachine, reads, new Listener(),
                    config.globalOutstandingLimit(), config.snapCount(), random, config.inlineIdleWrites());
            standalone.start("warden-" + config.clientPort());
            this.pipeline = standalone;
        }
        ServerStats stats = new ServerStats(clock.wallTimeMs(), txnLog.fsyncStats());
        ServerContext context = new ServerContext(config, clock, stateMachine, watches, pipeline, reads, stats, registry,
                member != null ? member.status() : MemberStatus.STANDALONE);
        try {
            if (member != null) {
                member.start(timers);
            }
            int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
            transport = new ClientTransport(context, config.clientPortAddress(), config.clientPort(), ioThreads);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding the client port", e);
        } catch (RuntimeException e) {
            if (member != null) {
                member.close();
            }
            pipeline.close();
            txnLog.close();
            throw new IOException("cannot listen on " + config.clientPortAddress() + ":" + config.clientPort()
                    + ": " + e.getMessage(), e);
        }
        scheduleTimers();
    }

    /**
     * What /zookeeper/config shows on a member: ZooKeeper's dynamic-config text for the server
     * lines exactly as configured (a member does not add its own client address), so every member
     * holds the same bytes and their tree digests stay comparable. The version is the member
     * list's, in hexadecimal as ZooKeeper writes it.
     */
    static String ensembleConfigText(ServerConfig config) {
        return config.ensembleConfig().text();
    }

    /** Recovers from the data directory, binds the client port and returns once serving. */
    public static WardenServer start(ServerConfig config) throws IOException {
        return start(config, Clock.SYSTEM);
    }

    public static WardenServer start(ServerConfig config, Clock clock) throws IOException {
        return start(config, clock, TxnLogOptions.defaults().channels());
    }

    /** As {@link #start(ServerConfig)}, with the transaction log's files opened through
     *  {@code logChannels} (tests inject a disk that fills up). */
    public static WardenServer start(ServerConfig config, Clock clock, FileChannelFactory logChannels)
            throws IOException {
        return start(config, clock, logChannels, ZabConsensus::new);
    }

    /** As above; an ensemble member's core and peer links come from {@code consensus} (tests substitute them). */
    public static WardenServer start(ServerConfig config, Clock clock, FileChannelFactory logChannels,
                                     ConsensusFactory.Provider consensus) throws IOException {
        WardenServer server = new WardenServer(config, clock, logChannels, consensus);
        log.info("serving on {}:{}, data in {}", config.clientPortAddress(), server.clientPort(), config.dataDir());
        return server;
    }

    private void scheduleTimers() {
        long tickMs = config.tickTimeMs();
        if (member == null) {
            // A member's sessions are expired by the leader (Member schedules that).
            timers.scheduleAtFixedRate(this::expireSessions, tickMs, tickMs, TimeUnit.MILLISECONDS);
        }
        long reapMs = config.containerCheckIntervalMs();
        timers.scheduleWithFixedDelay(this::reapContainers, reapMs, reapMs, TimeUnit.MILLISECONDS);
        int purgeHours = config.autopurgePurgeIntervalHours();
        if (purgeHours > 0) {
            timers.scheduleWithFixedDelay(this::purge, purgeHours, purgeHours, TimeUnit.HOURS);
        }
    }

    private void expireSessions() {
        for (long sessionId : stateMachine.sessions().takeExpired()) {
            log.info("expiring session 0x{}", Long.toHexString(sessionId));
            pipeline.submit(new Request(null, sessionId, 0, OpCode.CLOSE_SESSION, null));
        }
    }

    /** Containers that had children and lost them all, and TTL nodes idle past their TTL. */
    private void reapContainers() {
        if (member != null && !member.isLeading()) {
            return;
        }
        DataTree tree = stateMachine.tree();
        long now = clock.wallTimeMs();
        for (String path : tree.containerAndTtlPaths()) {
            boolean due;
            tree.readLock().lock();
            try {
                DataNode node = tree.node(path);
                if (node == null || node.numChildren() > 0) {
                    continue;
                }
                due = NodeOwner.isContainer(node.owner())
                        ? node.cversionCounter() > 0
                        : now - node.mtime() > NodeOwner.ttlMs(node.owner());
            } finally {
                tree.readLock().unlock();
            }
            if (due) {
                Request reap = new Request(null, 0, 0, OpCode.DELETE_CONTAINER, new DeleteContainerRequest(path));
                if (member == null) {
                    pipeline.submit(reap);
                } else {
                    member.submitHousekeeping(reap);
                }
            }
        }
    }

    private void takeSnapshot() {
        if (!snapshotRunning.compareAndSet(false, true)) {
            return;
        }
        try {
            long started = clock.monotonicMs();
            var file = ServerState.writeSnapshot(snapshots, stateMachine);
            log.info("snapshot {} written in {} ms", file.getFileName(), clock.monotonicMs() - started);
        } catch (IOException | RuntimeException e) {
            log.error("snapshot failed; the log still holds every transaction", e);
        } finally {
            snapshotRunning.set(false);
        }
    }

    /**
     * Writes a snapshot now and returns its file once it is durable. It runs on the snapshot
     * thread, so it never overlaps a scheduled snapshot. For tools and benchmarks.
     */
    public java.nio.file.Path snapshotNow() throws IOException {
        var written = snapshotter.submit(() -> ServerState.writeSnapshot(snapshots, stateMachine));
        try {
            return written.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the snapshot", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("snapshot failed", e.getCause());
        }
    }

    /** Keeps the newest autopurge.snapRetainCount snapshots and the log needed to replay them.
     *  Runs every autopurge.purgeInterval hours; package-private so tests can run it now. */
    void purge() {
        try {
            var removed = snapshots.purge(config.autopurgeSnapRetainCount());
            var oldest = snapshots.oldestZxid();
            if (oldest.isPresent()) {
                if (member == null) {
                    txnLog.purgeUpTo(oldest.getAsLong());
                } else {
                    // The core reads the log: the purge must happen on its thread, through its view.
                    member.purgeLogUpTo(oldest.getAsLong());
                }
            }
            log.info("autopurge removed {} snapshots", removed.size());
        } catch (IOException | RuntimeException e) {
            log.warn("autopurge failed: {}", e.toString());
        }
    }

    /** The bound client port (useful when the config asked for port 0). */
    public int clientPort() {
        return transport.port();
    }

    /** The request pipeline, for tests in this package. */
    RequestPipeline pipeline() {
        return pipeline;
    }

    /** host:port for clients. */
    public String connectString() {
        return config.clientPortAddress() + ":" + clientPort();
    }

    public ServerConfig config() {
        return config;
    }

    /** The ensemble side of this server, or null if it is standalone. */
    public Member member() {
        return member;
    }

    /** Stops accepting, flushes pending log writes, closes connections and files. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        transport.stopAccepting();
        timers.shutdownNow();
        snapshotter.shutdown();
        if (member != null) {
            member.close();
        }
        pipeline.close();
        registry.closeAll();
        transport.close();
        try {
            txnLog.close();
        } catch (IOException e) {
            log.error("closing the transaction log failed", e);
        }
        log.info("stopped server on port {}", config.clientPort());
    }

    private final class Listener implements PipelineListener {
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
            snapshotter.execute(WardenServer.this::takeSnapshot);
        }
    }
}
