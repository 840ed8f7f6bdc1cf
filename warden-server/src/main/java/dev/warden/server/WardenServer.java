package dev.warden.server;

import dev.warden.consensus.Configurations;
import dev.warden.consensus.EpochState;
import dev.warden.server.admin.AdminServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.ConfigException;
import dev.warden.server.config.MetricsSettings;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.jmx.MemberBeans;
import dev.warden.server.jmx.ServerBeans;
import dev.warden.server.log.EpochFiles;
import dev.warden.server.log.TxnLogView;
import dev.warden.server.metrics.MetricsServer;
import dev.warden.server.net.AuditLog;
import dev.warden.server.net.ClientTransport;
import dev.warden.server.net.ConnectionRegistry;
import dev.warden.server.net.MemberStatus;
import dev.warden.server.net.ServerContext;
import dev.warden.server.net.ServerStats;
import dev.warden.server.net.TraceMask;
import dev.warden.server.pipeline.Pipeline;
import dev.warden.server.pipeline.PipelineListener;
import dev.warden.server.pipeline.RequestPipeline;
import dev.warden.server.quorum.ConsensusFactory;
import dev.warden.server.quorum.Member;
import dev.warden.server.quorum.StartingConfigurations;
import dev.warden.server.quorum.ZabConsensus;
import dev.warden.server.recovery.DataDirLock;
import dev.warden.server.recovery.DataDirRecovery;
import dev.warden.server.recovery.DataLayout;
import dev.warden.server.recovery.ResyncMarker;
import dev.warden.server.security.SaslServers;
import dev.warden.server.threads.ServerThreads;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Reconfigurer;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.watch.WatchManager;
import dev.warden.storage.FileChannelFactory;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone Warden server: recovers from its data directory, then serves the client port.
 * Several may run in one JVM: nothing here is static.
 */
public final class WardenServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WardenServer.class);
    /** Where the AdminServer writes a snapshot while it streams it (removed afterwards). */
    static final String ADMIN_SCRATCH_DIR = "admin-snapshot.tmp";

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
    /** How often a member's learner-connection beans are matched to its learners. */
    private static final long LEARNER_BEANS_PERIOD_MS = 100;
    /** Its own thread: a snapshot of a large tree must not delay session expiry ticks. */
    private final java.util.concurrent.ExecutorService snapshotter;
    /** Writes the snapshots, on {@link #snapshotter}. */
    private final ServerSnapshots snapshotWriter;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Held from start to close, so no tool and no second server uses the data directory meanwhile. */
    private final DataDirLock dataDirLock;
    private ClientTransport transport;
    /** Null unless admin.enableServer=true and its port could be bound. */
    private volatile AdminServer adminServer;
    /** Null unless metricsProvider.className names ZooKeeper's Prometheus provider and its port could be bound. */
    private volatile MetricsServer metricsServer;
    /** The JMX beans under ZooKeeper's names (a standalone server's, or a member's). */
    private AutoCloseable jmxBeans;
    /** Its timed chores, scheduled once the client port is bound. */
    private Housekeeping housekeeping;
    /** The bound TLS client port, 0 without one. */
    private int secureClientPort;

    private WardenServer(ServerConfig config, Clock clock, FileChannelFactory logChannels,
                         ConsensusFactory.Provider consensusProvider, DataDirLock dataDirLock) throws IOException {
        this.dataDirLock = dataDirLock;
        // the key and trust stores are read first: a bad one stops the server before it touches its data
        ClientPorts ports = ClientPorts.of(config.security());
        SaslServers saslServers = ClientSasl.serversFor(config.security().sasl(),
                config.security().enforcement().requiredSchemes().contains("sasl"));
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
        if (config.isEnsemble() && !dev.warden.server.quorum.Member.keepsHistoryOnDisk(config)
                && !ResyncMarker.exists(config.dataDir())) {
            // An observer with syncEnabled=false wrote no history, so its disk proves nothing: it
            // starts empty and takes the leader's, as a member whose history was set aside does.
            ResyncMarker.write(config.dataDir(), "an observer with syncEnabled=false keeps no history on disk and"
                    + " takes the leader's at every start");
        }
        long recoveryStartNs = System.nanoTime();
        DataDirRecovery.Outcome recovered = DataDirRecovery.recover(layout, logOptions, stateMachine, onUnprovable,
                clock.wallTimeMs());
        long dbInitMs = (System.nanoTime() - recoveryStartNs) / 1_000_000;
        this.txnLog = recovered.log();
        this.snapshots = new SnapshotStore(layout.snapshotsDir(), dev.warden.storage.FileChannelFactory.DEFAULT,
                config.snapshotCompression());
        WatchManager watches = new WatchManager(config.maxWatchesPerSession());
        tree.setEvents(watches::trigger);
        this.registry = new ConnectionRegistry(config.maxClientCnxns());
        PendingState pending = new PendingState(tree);
        SecureRandom random = new SecureRandom();
        long lastZxid = Math.max(tree.lastAppliedZxid(), txnLog.lastAppendedZxid());
        Preparer preparer = new Preparer(pending, sessions, clock, random, config.extendedTypesEnabled(), lastZxid);
        preparer.reconfigurer(Reconfigurer.standalone(config.reconfigEnabled()));
        if (config.enforceQuota()) {
            preparer.enforceQuotas(new TreeQuotaGuard(tree));
        }
        if (config.skipAcl()) {
            preparer.skipAclChecks();
            log.warn("ACL checks are off (skipACL=yes): every client may read, change and delete every node");
        }
        ReadProcessor reads = new ReadProcessor(tree, watches);
        this.timers = ServerThreads.timer("warden-timers-" + config.clientPort());
        this.snapshotter = ServerThreads.single("warden-snapshot-" + config.clientPort());
        this.snapshotWriter = new ServerSnapshots(snapshotter, snapshots, stateMachine, clock);
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
                if (config.localSessions().enabled()) {
                    preparer.acceptLocalSessions(config.serverId());
                    log.info("local sessions are on (localSessionsEnabled=true); ephemeral nodes {}",
                            config.localSessions().upgradingEnabled()
                                    ? "upgrade a session to a global one (localSessionsUpgradingEnabled=true)"
                                    : "need a global session and are refused to local ones");
                }
                this.member = new Member(config, clock, stateMachine, pending, preparer, reads, registry,
                        logView, storage, consensus, random);
            } catch (IOException | RuntimeException e) {
                txnLog.close();
                throw e;
            }
            this.pipeline = member.pipeline();
        } else {
            if (config.localSessions().enabled()) {
                log.info("localSessionsEnabled=true is for ensemble members; a standalone server makes every"
                        + " session global, as ZooKeeper's does");
            }
            this.member = null;
            this.consensus = null;
            Pipeline standalone = new Pipeline(preparer, pending, txnLog, stateMachine, reads, new Listener(watches),
                    config.globalOutstandingLimit(), config.snapCount(), random, config.inlineIdleWrites());
            standalone.start("warden-" + config.clientPort());
            this.pipeline = standalone;
        }
        ServerStats stats = new ServerStats(clock.wallTimeMs(), txnLog.fsyncStats(), txnLog.batchRecords(),
                snapshots.writeTimes(), new ServerStats.Startup(dbInitMs, recovered.snapshotLoadMs(), recovered.replayMs(),
                recovered.replayed()));
        ServerContext context = new ServerContext(config, clock, stateMachine, watches, pipeline, reads, stats, registry,
                member != null ? member.status() : MemberStatus.STANDALONE, new TraceMask(), saslServers);
        try {
            if (member != null) {
                member.start(timers);
            }
            int ioThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
            transport = new ClientTransport(context, config.clientPortAddress(), config.clientPort(), ioThreads,
                    ports.plainPort());
            if (ports.securePort() != null) {
                secureClientPort = transport.bind(Objects.requireNonNullElse(
                        config.security().secureClientPortAddress(), config.clientPortAddress()),
                        config.security().secureClientPort(), ports.securePort());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding the client port", e);
        } catch (IOException | RuntimeException e) {
            if (transport != null) {
                transport.close();
            }
            if (member != null) {
                member.close();
            }
            pipeline.close();
            txnLog.close();
            throw e instanceof IOException io ? io : new IOException("cannot listen for clients on "
                    + config.clientPortAddress() + ":" + config.clientPort() + " (clientPortAddress, clientPort): "
                    + e.getMessage(), e);
        }
        housekeeping = new Housekeeping(config, clock, stateMachine, pipeline, member, snapshots, txnLog);
        housekeeping.schedule(timers);
        if (config.auditEnabled()) {
            AuditLog.serverStart();
        }
        startAdminServer(context);
        startMetricsServer(context);
        if (member == null) {
            jmxBeans = ServerBeans.registerStandalone(context, transport.port());
        } else {
            MemberBeans beans = MemberBeans.register(context, transport.port());
            member.onRoleChange(() -> {
                try {
                    timers.execute(beans::roleChanged);
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // the server is stopping; its beans go with it
                }
            });
            member.onConfigurationCommitted(() -> {
                try {
                    timers.execute(beans::configurationChanged);
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // the server is stopping; its beans go with it
                }
            });
            beans.roleChanged(); // a change before the listeners were set
            beans.configurationChanged();
            // learners come and go without a role change; their figures are published as often
            timers.scheduleWithFixedDelay(beans::learnersChanged, LEARNER_BEANS_PERIOD_MS, LEARNER_BEANS_PERIOD_MS,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            jmxBeans = beans;
        }
    }

    /** /metrics, if configured; as in ZooKeeper, a port that cannot be bound stops the server. */
    private void startMetricsServer(ServerContext context) throws IOException {
        MetricsSettings metrics = config.metrics();
        if (!metrics.prometheus()) {
            return;
        }
        try {
            metricsServer = MetricsServer.start(metrics, context);
            log.info("Prometheus metrics on http://{}:{}/metrics", metrics.httpHost(), metricsServer.port());
        } catch (Exception e) {
            close();
            throw new IOException("cannot serve /metrics on " + metrics.httpHost() + ":" + metrics.httpPort()
                    + " (metricsProvider.httpHost, metricsProvider.httpPort): " + e
                    + ". Choose a free metricsProvider.httpPort.", e);
        }
    }

    /** The /metrics port, or -1 when Prometheus metrics are off. */
    public int metricsPort() {
        MetricsServer metrics = metricsServer;
        return metrics == null ? -1 : metrics.port();
    }

    /**
     * The AdminServer, if enabled. As in ZooKeeper, a port that cannot be bound is logged and the
     * server runs on without it: clients do not need it.
     */
    private void startAdminServer(ServerContext context) {
        AdminServerSettings admin = config.adminServer();
        if (!admin.enabled()) {
            return;
        }
        try {
            adminServer = AdminServer.start(admin, context, snapshots, snapshotWriter::writeConsistentSnapshot,
                    config.dataDir().resolve(ADMIN_SCRATCH_DIR));
            log.info("AdminServer listening on {}://{}:{}{}", admin.tls().forceHttps() ? "https"
                    : admin.tls().portUnification() ? "http(s)" : "http", admin.address(), adminServer.port(),
                    admin.commandUrl());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("AdminServer not started: cannot listen on {}:{} (admin.serverAddress, admin.serverPort): {}."
                    + " The server runs without it; choose a free admin.serverPort or set admin.enableServer=false.",
                    admin.address(), admin.port(), e.toString());
        }
    }

    /** The AdminServer's port, or -1 when it is not running. */
    public int adminServerPort() {
        AdminServer admin = adminServer;
        return admin == null ? -1 : admin.port();
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
        // Refused before the lock file is made: nothing may be written into ZooKeeper's directory.
        ZooKeeperDataCheck.refuseZooKeeperData(config);
        DataDirLock lock;
        try {
            lock = DataDirLock.acquire(config.dataDir(), "a Warden server");
        } catch (DataDirLock.InUseException inUse) {
            throw new ConfigException("dataDir", "dataDir=" + config.dataDir() + ": " + inUse.getMessage(), inUse);
        }
        WardenServer server;
        try {
            server = new WardenServer(config, clock, logChannels, consensus, lock);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
        if (config.isEnsemble()) {
            // a member serves only once it has joined a leader; the member logs when it does
            log.info("member {} listening for clients on {}:{} (served once it has joined a leader), data in {}",
                    config.serverId(), config.clientPortAddress(), server.clientPort(), config.dataDir());
        } else {
            log.info("serving on {}:{}, data in {}", config.clientPortAddress(), server.clientPort(), config.dataDir());
        }
        return server;
    }

    /** Keeps the newest autopurge.snapRetainCount snapshots and the log needed to replay them, now; for tests. */
    void purge() {
        housekeeping.purge();
    }

    /**
     * Writes a snapshot now and returns its file once it is durable. It runs on the snapshot
     * thread, so it never overlaps a scheduled snapshot. For tools and benchmarks.
     */
    public java.nio.file.Path snapshotNow() throws IOException {
        return snapshotWriter.snapshotNow();
    }

    /** The bound client port (useful when the config asked for port 0). */
    public int clientPort() {
        return transport.port();
    }

    /** The bound TLS-only client port ({@code secureClientPort}), 0 if there is none. */
    public int secureClientPort() {
        return secureClientPort;
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
        if (config.auditEnabled()) {
            AuditLog.serverStop();
        }
        AdminServer admin = adminServer;
        if (admin != null) {
            admin.close();
        }
        MetricsServer metrics = metricsServer;
        if (metrics != null) {
            metrics.close();
        }
        if (jmxBeans != null) {
            try {
                jmxBeans.close();
            } catch (Exception e) {
                log.warn("unregistering the JMX beans failed: {}", e.toString());
            }
        }
        try {
            stopAndCloseFiles();
        } finally {
            // last, and whatever failed before: the directory is free for the next server or tool
            try {
                dataDirLock.close();
            } catch (IOException e) {
                log.warn("releasing the lock on {} failed: {}", config.dataDir(), e.toString());
            }
        }
        log.info("stopped server on port {}", transport.port());
    }

    private void stopAndCloseFiles() {
        transport.stopAccepting();
        timers.shutdownNow();
        snapshotter.shutdown();
        if (member != null) {
            member.close();
        }
        pipeline.close();
        registry.closeAll();
        transport.close();
        snapshotWriter.awaitSnapshotWriter();
        try {
            txnLog.close();
        } catch (IOException e) {
            log.error("closing the transaction log failed", e);
        }
    }

    private final class Listener implements PipelineListener {
        private final WatchManager watches;

        Listener(WatchManager watches) {
            this.watches = watches;
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
            snapshotter.execute(snapshotWriter::takeSnapshot);
        }
    }
}
