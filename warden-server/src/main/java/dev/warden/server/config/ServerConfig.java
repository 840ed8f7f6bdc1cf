package dev.warden.server.config;

import dev.warden.server.security.SecurityConfig;
import dev.warden.storage.TxnLogOptions;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The settings of one server, standalone or ensemble member, validated once when built: an
 * instance that exists is usable. An ensemble member has a non-empty {@link #members()} map
 * (the {@code server.N} lines) holding its own {@link #serverId()} (the {@code myid} file), and the
 * {@link #configVersion()} of that member list (from the dynamic config file's name, as in
 * ZooKeeper; 0 for lines in zoo.cfg). Build one with {@link #builder()} or read a zoo.cfg with
 * {@link ConfigLoader}.
 * Error messages use the zoo.cfg key names, since that is what operators edit.
 */
public record ServerConfig(
        int tickTimeMs,
        Path dataDir,
        Path dataLogDir,
        int clientPort,
        String clientPortAddress,
        int maxClientCnxns,
        int minSessionTimeoutMs,
        int maxSessionTimeoutMs,
        int snapCount,
        int autopurgeSnapRetainCount,
        int autopurgePurgeIntervalHours,
        int juteMaxBuffer,
        Set<String> fourLetterWordWhitelist,
        String superDigest,
        boolean extendedTypesEnabled,
        boolean forceSync,
        int globalOutstandingLimit,
        int maxWatchesPerSession,
        long containerCheckIntervalMs,
        long sessionlessConnectionTimeoutMs,
        long preAllocSizeBytes,
        long fsyncWarningThresholdMs,
        boolean txnLogDirectIo,
        boolean inlineIdleWrites,
        boolean digestEnabled,
        boolean discardUnprovable,
        int serverId,
        int initLimitTicks,
        int syncLimitTicks,
        boolean standaloneEnabled,
        SortedMap<Long, QuorumMember> members,
        long configVersion,
        QuorumGroups quorumGroups,
        boolean reconfigEnabled,
        Path configFile,
        AdminServerSettings adminServer,
        MetricsSettings metrics,
        boolean enforceQuota,
        boolean skipAcl,
        boolean quorumListenOnAllIPs,
        MultiAddressSettings multiAddress,
        boolean observerSyncEnabled,
        boolean leaderServes,
        dev.warden.storage.SnapshotCompression snapshotCompression,
        boolean auditEnabled,
        SecurityConfig security,
        boolean readOnlyModeEnabled,
        LocalSessionSettings localSessions,
        ObserverSettings observer) {

    /** Every four-letter word Warden knows; "*" in the whitelist stands for all of them. */
    public static final Set<String> KNOWN_FOUR_LETTER_WORDS = Set.of(
            "ruok", "srvr", "stat", "mntr", "cons", "conf", "envi", "wchs", "wchc", "wchp", "dump", "isro", "srst",
            "crst", "dirs", "hash", "gtmk", "stmk");

    /** srvr is what monitoring and zkCli probes use, so it is never switched off. */
    public static final String ALWAYS_ALLOWED_WORD = "srvr";

    private static final int MAX_SERVER_ID_WITH_EXTENDED_TYPES = 254;

    /** Numeric limits, shared by validation here and by the loader's parse errors. */
    enum Range {
        TICK_TIME("tickTime", 1, Integer.MAX_VALUE, "must be a positive number of milliseconds"),
        CLIENT_PORT("clientPort", 0, 65535, "must be a port from 0 to 65535 (0 picks a free port)"),
        MAX_CLIENT_CNXNS("maxClientCnxns", 0, Integer.MAX_VALUE,
                "must be 0 (unlimited) or a positive number of connections per client address"),
        MIN_SESSION_TIMEOUT("minSessionTimeout", 1, Integer.MAX_VALUE,
                "must be a positive number of milliseconds, not above maxSessionTimeout"),
        MAX_SESSION_TIMEOUT("maxSessionTimeout", 1, Integer.MAX_VALUE,
                "must be a positive number of milliseconds, not below minSessionTimeout"),
        SNAP_COUNT("snapCount", 2, Integer.MAX_VALUE, "must be a number of transactions, at least 2"),
        SNAP_RETAIN_COUNT("autopurge.snapRetainCount", 3, Integer.MAX_VALUE,
                "must be a number of snapshots, at least 3"),
        PURGE_INTERVAL("autopurge.purgeInterval", 0, Integer.MAX_VALUE,
                "must be 0 (purging disabled) or a positive number of hours"),
        JUTE_MAX_BUFFER("jute.maxbuffer", 1024, Integer.MAX_VALUE, "must be at least 1024 bytes: a smaller limit"
                + " refuses clients' own connect and ordinary requests, so every connection would be closed (the"
                + " default is 1048575)"),
        GLOBAL_OUTSTANDING_LIMIT("globalOutstandingLimit", 1, Integer.MAX_VALUE,
                "must be a positive number of requests"),
        MAX_WATCHES_PER_SESSION("maxWatchesPerSession", 1, Integer.MAX_VALUE,
                "must be a positive number of watches"),
        CONTAINER_CHECK_INTERVAL("znode.container.checkIntervalMs", 1, Long.MAX_VALUE,
                "must be a positive number of milliseconds"),
        SESSIONLESS_TIMEOUT("sessionlessConnectionTimeoutMs", 1, Long.MAX_VALUE,
                "must be a positive number of milliseconds"),
        PRE_ALLOC_SIZE_KIB("preAllocSize", 1, Long.MAX_VALUE / 1024, "must be a positive number of KiB"),
        PRE_ALLOC_SIZE_BYTES("preAllocSizeBytes", 1, Long.MAX_VALUE, "must be a positive number of bytes"),
        FSYNC_WARNING_THRESHOLD("fsync.warningthresholdms", 1, Long.MAX_VALUE,
                "must be a positive number of milliseconds"),
        SERVER_ID("serverId", 1, Integer.MAX_VALUE, "must be a positive server id"),
        MY_ID("myid", 1, Integer.MAX_VALUE, "must be a positive server id"),
        INIT_LIMIT("initLimit", 1, Integer.MAX_VALUE, "must be a positive number of ticks"),
        SYNC_LIMIT("syncLimit", 1, Integer.MAX_VALUE, "must be a positive number of ticks"),
        ADMIN_PORT("admin.serverPort", 0, 65535, "must be a port from 0 to 65535 (0 picks a free port)"),
        ADMIN_IDLE_TIMEOUT("admin.idleTimeout", 1, Long.MAX_VALUE, "must be a positive number of milliseconds"),
        ADMIN_RATE_LIMITER_INTERVAL("admin.rateLimiterIntervalInMS", 0, Long.MAX_VALUE,
                "must be 0 (no limit) or a positive number of milliseconds"),
        METRICS_PORT("metricsProvider.httpPort", 0, 65535, "must be a port from 0 to 65535 (0 picks a free port)"),
        MULTI_ADDRESS_REACHABILITY_TIMEOUT("multiAddress.reachabilityCheckTimeoutMs", 1, Integer.MAX_VALUE,
                "must be a positive number of milliseconds"),
        OBSERVER_MASTER_PORT("observerMasterPort", 0, 65535, "must be a port from 1 to 65535 (0, the default,"
                + " leaves observers following the leader)"),
        OBSERVER_RECONNECT_DELAY("observer.reconnectDelayMs", 0, Long.MAX_VALUE,
                "must be 0 (no delay, the default) or a positive number of milliseconds");

        final String key;
        final long min;
        final long max;
        final String allowed;

        Range(String key, long min, long max, String allowed) {
            this.key = key;
            this.min = min;
            this.max = max;
            this.allowed = allowed;
        }

        long check(long value) {
            if (value < min || value > max) {
                throw ConfigException.invalid(key, value, allowed);
            }
            return value;
        }

        /** Parses text written under writtenKey (which may be an alias of this key). */
        long parse(String writtenKey, String text) {
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException notANumber) {
                throw ConfigException.invalid(writtenKey, text, allowed);
            }
            if (value < min || value > max) {
                throw ConfigException.invalid(writtenKey, text, allowed);
            }
            return value;
        }
    }

    /** Validates every field; all construction paths, including the builder, end here. */
    public ServerConfig {
        Range.TICK_TIME.check(tickTimeMs);
        dataDir = ServerConfigChecks.requirePath("dataDir", dataDir);
        dataLogDir = ServerConfigChecks.requirePath("dataLogDir", dataLogDir);
        Range.CLIENT_PORT.check(clientPort);
        if (clientPortAddress == null || clientPortAddress.isBlank()) {
            throw ConfigException.invalid("clientPortAddress", clientPortAddress,
                    "must be a host name or IP address to listen on");
        }
        clientPortAddress = clientPortAddress.trim();
        Range.MAX_CLIENT_CNXNS.check(maxClientCnxns);
        Range.MIN_SESSION_TIMEOUT.check(minSessionTimeoutMs);
        Range.MAX_SESSION_TIMEOUT.check(maxSessionTimeoutMs);
        if (minSessionTimeoutMs > maxSessionTimeoutMs) {
            throw new ConfigException("minSessionTimeout", "minSessionTimeout=" + minSessionTimeoutMs
                    + " is greater than maxSessionTimeout=" + maxSessionTimeoutMs
                    + ": the minimum session timeout must not exceed the maximum");
        }
        Range.SNAP_COUNT.check(snapCount);
        Range.SNAP_RETAIN_COUNT.check(autopurgeSnapRetainCount);
        Range.PURGE_INTERVAL.check(autopurgePurgeIntervalHours);
        Range.JUTE_MAX_BUFFER.check(juteMaxBuffer);
        fourLetterWordWhitelist = ServerConfigChecks.normalizeWhitelist(fourLetterWordWhitelist);
        ServerConfigChecks.checkSuperDigest(superDigest);
        Range.GLOBAL_OUTSTANDING_LIMIT.check(globalOutstandingLimit);
        Range.MAX_WATCHES_PER_SESSION.check(maxWatchesPerSession);
        Range.CONTAINER_CHECK_INTERVAL.check(containerCheckIntervalMs);
        Range.SESSIONLESS_TIMEOUT.check(sessionlessConnectionTimeoutMs);
        Range.PRE_ALLOC_SIZE_BYTES.check(preAllocSizeBytes);
        Range.FSYNC_WARNING_THRESHOLD.check(fsyncWarningThresholdMs);
        Range.SERVER_ID.check(serverId);
        if (extendedTypesEnabled && serverId > MAX_SERVER_ID_WITH_EXTENDED_TYPES) {
            // TTL nodes store their marker in the owner field's top byte, where the server id would go
            throw ConfigException.invalid("serverId", serverId,
                    "must be at most 254 while extendedTypesEnabled is true");
        }
        Range.INIT_LIMIT.check(initLimitTicks);
        Range.SYNC_LIMIT.check(syncLimitTicks);
        members = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNullElse(members, Map.of())));
        ServerConfigChecks.checkEnsemble(members, serverId, clientPort);
        multiAddress = Objects.requireNonNullElse(multiAddress, MultiAddressSettings.DEFAULTS);
        MemberLines.refuseSeveralAddresses(members, multiAddress.enabled());
        ServerConfigChecks.checkConfigVersion(configVersion, !members.isEmpty());
        quorumGroups = Objects.requireNonNullElse(quorumGroups, QuorumGroups.NONE);
        if (quorumGroups.isHierarchical()) {
            // the lines were checked when read; a programmatic config gets the same checks here
            Properties lines = new Properties();
            for (String line : quorumGroups.lines().split("\n")) {
                int eq = line.indexOf('=');
                lines.setProperty(line.substring(0, eq), line.substring(eq + 1));
            }
            MemberLines.parseGroups(lines, members, "the configuration");
        }
        adminServer = Objects.requireNonNullElse(adminServer, AdminServerSettings.DEFAULTS);
        if (adminServer.enabled()) {
            adminServer.tls().check();
        }
        metrics = Objects.requireNonNullElse(metrics, MetricsSettings.DEFAULTS);
        security = Objects.requireNonNullElse(security, SecurityConfig.NONE);
        ServerConfigChecks.checkSecurity(security, clientPort, clientPortAddress);
        if (discardUnprovable && !members.isEmpty()) {
            throw new ConfigException("--discard-unprovable", "--discard-unprovable is for a standalone server: an"
                    + " ensemble member whose data proves no state sets it aside and takes a copy from the leader"
                    + " by itself");
        }
    }

    /** True for an ensemble member, false for a standalone server. */
    public boolean isEnsemble() {
        return !members.isEmpty();
    }

    /** This member's own server line; only for an ensemble member. */
    public QuorumMember self() {
        QuorumMember self = members.get((long) serverId);
        if (self == null) {
            throw new IllegalStateException("not an ensemble member");
        }
        return self;
    }

    /** The member list as a configuration: members, groups and weights, version. */
    public EnsembleConfig ensembleConfig() {
        return new EnsembleConfig(members, quorumGroups, configVersion);
    }

    /** Ids of the voting members (participants). */
    public Set<Long> voterIds() {
        Set<Long> ids = new TreeSet<>();
        members.values().stream().filter(m -> !m.observer()).forEach(m -> ids.add(m.id()));
        return ids;
    }

    /** Ids of the observers. */
    public Set<Long> observerIds() {
        Set<Long> ids = new TreeSet<>();
        members.values().stream().filter(QuorumMember::observer).forEach(m -> ids.add(m.id()));
        return ids;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding these values. Session timeouts equal to their tick-derived defaults and a
     * dataLogDir equal to dataDir stay derived, so changing tickTime or dataDir moves them along.
     */
    public Builder toBuilder() {
        Builder b = new Builder()
                .tickTimeMs(tickTimeMs).dataDir(dataDir).clientPort(clientPort)
                .clientPortAddress(clientPortAddress).maxClientCnxns(maxClientCnxns)
                .snapCount(snapCount).autopurgeSnapRetainCount(autopurgeSnapRetainCount)
                .autopurgePurgeIntervalHours(autopurgePurgeIntervalHours).juteMaxBuffer(juteMaxBuffer)
                .fourLetterWordWhitelist(fourLetterWordWhitelist).superDigest(superDigest)
                .extendedTypesEnabled(extendedTypesEnabled).forceSync(forceSync)
                .globalOutstandingLimit(globalOutstandingLimit).maxWatchesPerSession(maxWatchesPerSession)
                .containerCheckIntervalMs(containerCheckIntervalMs)
                .sessionlessConnectionTimeoutMs(sessionlessConnectionTimeoutMs)
                .preAllocSizeBytes(preAllocSizeBytes).fsyncWarningThresholdMs(fsyncWarningThresholdMs)
                .txnLogDirectIo(txnLogDirectIo).inlineIdleWrites(inlineIdleWrites).digestEnabled(digestEnabled)
                .discardUnprovable(discardUnprovable).serverId(serverId)
                .initLimitTicks(initLimitTicks).syncLimitTicks(syncLimitTicks).standaloneEnabled(standaloneEnabled)
                .members(members).configVersion(configVersion).quorumGroups(quorumGroups)
                .reconfigEnabled(reconfigEnabled).configFile(configFile)
                .adminServer(adminServer).metrics(metrics).enforceQuota(enforceQuota).skipAcl(skipAcl)
                .quorumListenOnAllIPs(quorumListenOnAllIPs).multiAddress(multiAddress)
                .observerSyncEnabled(observerSyncEnabled).leaderServes(leaderServes)
                .snapshotCompression(snapshotCompression).auditEnabled(auditEnabled)
                .security(security).readOnlyModeEnabled(readOnlyModeEnabled).localSessions(localSessions)
                .observerMasterPort(observer.masterPort()).observerReconnectDelayMs(observer.reconnectDelayMs());
        if (!dataLogDir.equals(dataDir)) {
            b.dataLogDir(dataLogDir);
        }
        if (minSessionTimeoutMs != Builder.derived(Builder.MIN_SESSION_TICKS, tickTimeMs)) {
            b.minSessionTimeoutMs(minSessionTimeoutMs);
        }
        if (maxSessionTimeoutMs != Builder.derived(Builder.MAX_SESSION_TICKS, tickTimeMs)) {
            b.maxSessionTimeoutMs(maxSessionTimeoutMs);
        }
        return b;
    }

    /**
     * The settings under their zoo.cfg key names, in a form {@link ConfigLoader#fromProperties}
     * reads back to an equal config. serverId is left out: standalone servers take no id key and
     * an ensemble member reads it from {@code dataDir/myid}, which this does not write.
     */
    public Properties toProperties() {
        Properties p = new Properties();
        ConfigSettings.of(this).forEach((key, value) -> {
            if (value != null && !key.equals("serverId") && !key.equals("peerType")) {
                p.setProperty(key, value);
            }
        });
        return p;
    }

    /** One "key=value" line per setting, in a stable order, for the conf four-letter word. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        ConfigSettings.of(this).forEach((key, value) -> out.append(key).append('=')
                .append((key.equals("superDigest") || SecurityConfig.isSecretKey(key)) && value != null
                        ? dev.warden.protocol.tls.Secret.HIDDEN : value).append('\n'));
        return out.toString();
    }

    /** Fluent, mutable staging area; {@link #build()} validates. Defaults are Warden's. */
    public static final class Builder {
        static final int MIN_SESSION_TICKS = 2;
        static final int MAX_SESSION_TICKS = 20;

        private int tickTimeMs = 3000;
        private Path dataDir = Path.of("./data");
        private Path dataLogDir;
        private int clientPort = 2181;
        private String clientPortAddress = "127.0.0.1";
        private int maxClientCnxns = 60;
        private Integer minSessionTimeoutMs;
        private Integer maxSessionTimeoutMs;
        private int snapCount = 100_000;
        private int autopurgeSnapRetainCount = 3;
        private int autopurgePurgeIntervalHours = 0;
        private int juteMaxBuffer = 0xfffff;
        private Set<String> fourLetterWordWhitelist = Set.of(ALWAYS_ALLOWED_WORD);
        private String superDigest;
        private boolean extendedTypesEnabled = true;
        private boolean forceSync = true;
        private int globalOutstandingLimit = 1000;
        private int maxWatchesPerSession = 1_000_000;
        private long containerCheckIntervalMs = 60_000;
        private long sessionlessConnectionTimeoutMs = 10_000;
        private long preAllocSizeBytes = 65_536L * 1024;
        private long fsyncWarningThresholdMs = TxnLogOptions.DEFAULT_SLOW_FSYNC_WARNING_MS;
        private boolean txnLogDirectIo = TxnLogOptions.defaults().directIo();
        private boolean inlineIdleWrites = true;
        private boolean digestEnabled = true;
        private boolean discardUnprovable;
        private int serverId = 1;
        private int initLimitTicks = 10;
        private int syncLimitTicks = 5;
        private boolean standaloneEnabled = true;
        private AdminServerSettings adminServer = AdminServerSettings.DEFAULTS;
        private MetricsSettings metrics = MetricsSettings.DEFAULTS;
        private boolean enforceQuota;
        private boolean skipAcl;
        private boolean quorumListenOnAllIPs;
        private MultiAddressSettings multiAddress = MultiAddressSettings.DEFAULTS;
        private boolean observerSyncEnabled = true;
        private boolean leaderServes = true;
        private dev.warden.storage.SnapshotCompression snapshotCompression = dev.warden.storage.SnapshotCompression.NONE;
        private boolean auditEnabled;
        private Map<Long, QuorumMember> members = Map.of();
        private long configVersion;
        private QuorumGroups quorumGroups = QuorumGroups.NONE;
        private boolean reconfigEnabled;
        private Path configFile;
        private SecurityConfig security = SecurityConfig.NONE;
        private boolean readOnlyModeEnabled;
        private LocalSessionSettings localSessions = LocalSessionSettings.DEFAULTS;
        private ObserverSettings observer = ObserverSettings.DEFAULTS;

        private Builder() {
        }

        public Builder tickTimeMs(int v) { tickTimeMs = v; return this; }
        public Builder dataDir(Path v) { dataDir = v; return this; }
        /** The loader finds the myid file here. */
        Path dataDir() { return dataDir; }
        /** Null means "same as dataDir". */
        public Builder dataLogDir(Path v) { dataLogDir = v; return this; }
        public Builder clientPort(int v) { clientPort = v; return this; }
        public Builder clientPortAddress(String v) { clientPortAddress = v; return this; }
        public Builder maxClientCnxns(int v) { maxClientCnxns = v; return this; }
        /** Null means 2 × tickTime. */
        public Builder minSessionTimeoutMs(Integer v) { minSessionTimeoutMs = v; return this; }
        /** Null means 20 × tickTime. */
        public Builder maxSessionTimeoutMs(Integer v) { maxSessionTimeoutMs = v; return this; }
        public Builder snapCount(int v) { snapCount = v; return this; }
        public Builder autopurgeSnapRetainCount(int v) { autopurgeSnapRetainCount = v; return this; }
        public Builder autopurgePurgeIntervalHours(int v) { autopurgePurgeIntervalHours = v; return this; }
        public Builder juteMaxBuffer(int v) { juteMaxBuffer = v; return this; }
        /** Words to allow; "*" means all known words. srvr is always added. */
        public Builder fourLetterWordWhitelist(Set<String> v) { fourLetterWordWhitelist = Set.copyOf(v); return this; }
        /** Null means no super user. */
        public Builder superDigest(String v) { superDigest = v; return this; }
        public Builder extendedTypesEnabled(boolean v) { extendedTypesEnabled = v; return this; }
        public Builder forceSync(boolean v) { forceSync = v; return this; }
        public Builder globalOutstandingLimit(int v) { globalOutstandingLimit = v; return this; }
        public Builder maxWatchesPerSession(int v) { maxWatchesPerSession = v; return this; }
        public Builder containerCheckIntervalMs(long v) { containerCheckIntervalMs = v; return this; }
        public Builder sessionlessConnectionTimeoutMs(long v) { sessionlessConnectionTimeoutMs = v; return this; }
        public Builder preAllocSizeBytes(long v) { preAllocSizeBytes = v; return this; }
        public Builder fsyncWarningThresholdMs(long v) { fsyncWarningThresholdMs = v; return this; }
        public Builder txnLogDirectIo(boolean v) { txnLogDirectIo = v; return this; }
        public Builder inlineIdleWrites(boolean v) { inlineIdleWrites = v; return this; }
        public Builder digestEnabled(boolean v) { digestEnabled = v; return this; }
        /** Not a zoo.cfg key: the command line's one-time --discard-unprovable. */
        public Builder discardUnprovable(boolean v) { discardUnprovable = v; return this; }
        public Builder serverId(int v) { serverId = v; return this; }
        public Builder initLimitTicks(int v) { initLimitTicks = v; return this; }
        public Builder syncLimitTicks(int v) { syncLimitTicks = v; return this; }
        public Builder standaloneEnabled(boolean v) { standaloneEnabled = v; return this; }
        /** The server lines by id; empty for a standalone server. */
        public Builder members(Map<Long, QuorumMember> v) { members = Map.copyOf(v); return this; }
        /** The version of the member list (ZooKeeper's dynamic configuration version); 0 by default. */
        public Builder configVersion(long v) { configVersion = v; return this; }
        /** group.N and weight.N: a hierarchical quorum; {@link QuorumGroups#NONE} (the default) for a majority. */
        public Builder quorumGroups(QuorumGroups v) { quorumGroups = v; return this; }
        /** reconfigEnabled: whether the reconfig request may change the members (off by default, as in ZooKeeper). */
        public Builder reconfigEnabled(boolean v) { reconfigEnabled = v; return this; }
        /** The zoo.cfg this was read from, or null; a member writes its new dynamic configuration file beside it. */
        public Builder configFile(Path v) { configFile = v; return this; }
        public Builder adminServer(AdminServerSettings v) { adminServer = v; return this; }
        public AdminServerSettings adminServer() { return adminServer; }
        public Builder metrics(MetricsSettings v) { metrics = v; return this; }
        public MetricsSettings metrics() { return metrics; }
        public Builder enforceQuota(boolean v) { enforceQuota = v; return this; }
        public Builder skipAcl(boolean v) { skipAcl = v; return this; }
        public Builder quorumListenOnAllIPs(boolean v) { quorumListenOnAllIPs = v; return this; }
        /** multiAddress.*: server lines with several addresses, and how their address is chosen. */
        public Builder multiAddress(MultiAddressSettings v) { multiAddress = v; return this; }
        public MultiAddressSettings multiAddress() { return multiAddress; }
        /**
         * syncEnabled (zookeeper.observer.syncEnabled): false keeps an observer's history off its
         * disk (no log records, no snapshots); it takes the leader's at every start. True by default.
         */
        public Builder observerSyncEnabled(boolean v) { observerSyncEnabled = v; return this; }
        /** False: the leader takes no client sessions (ZooKeeper's leaderServes=no); true by default. */
        public Builder leaderServes(boolean v) { leaderServes = v; return this; }
        /** How snapshots are written (ZooKeeper's snapshot.compression.method); uncompressed by default. */
        public Builder snapshotCompression(dev.warden.storage.SnapshotCompression v) { snapshotCompression = v; return this; }
        public Builder auditEnabled(boolean v) { auditEnabled = v; return this; }
        /** TLS, SASL and enforced authentication; {@link SecurityConfig#NONE} by default. */
        public Builder security(SecurityConfig v) { security = v; return this; }
        /**
         * readonlymode.enabled: a member cut off from its quorum serves read-only sessions from its
         * last applied state (docs/ENSEMBLE.md); off by default, as in ZooKeeper.
         */
        public Builder readOnlyModeEnabled(boolean v) { readOnlyModeEnabled = v; return this; }
        /** localSessionsEnabled and localSessionsUpgradingEnabled; both off by default. */
        public Builder localSessions(LocalSessionSettings v) { localSessions = v; return this; }
        public LocalSessionSettings localSessions() { return localSessions; }
        /** observerMasterPort and observer.reconnectDelayMs: see {@link ObserverSettings}. */
        public Builder observerMasterPort(int v) { observer = observer.withMasterPort(v); return this; }
        public Builder observerReconnectDelayMs(long v) { observer = observer.withReconnectDelayMs(v); return this; }

        /** Resolves derived defaults and validates; throws {@link ConfigException} on bad values. */
        public ServerConfig build() {
            Range.TICK_TIME.check(tickTimeMs); // the derived timeouts below need a sane tick first
            int minMs = minSessionTimeoutMs != null ? minSessionTimeoutMs : derived(MIN_SESSION_TICKS, tickTimeMs);
            int maxMs = maxSessionTimeoutMs != null ? maxSessionTimeoutMs : derived(MAX_SESSION_TICKS, tickTimeMs);
            return new ServerConfig(tickTimeMs, dataDir, dataLogDir != null ? dataLogDir : dataDir,
                    clientPort, clientPortAddress, maxClientCnxns, minMs, maxMs, snapCount,
                    autopurgeSnapRetainCount, autopurgePurgeIntervalHours, juteMaxBuffer,
                    fourLetterWordWhitelist, superDigest, extendedTypesEnabled, forceSync,
                    globalOutstandingLimit, maxWatchesPerSession, containerCheckIntervalMs,
                    sessionlessConnectionTimeoutMs, preAllocSizeBytes, fsyncWarningThresholdMs, txnLogDirectIo,
                    inlineIdleWrites, digestEnabled, discardUnprovable, serverId, initLimitTicks, syncLimitTicks,
                    standaloneEnabled, new TreeMap<>(members), configVersion, quorumGroups, reconfigEnabled,
                    configFile, adminServer, metrics, enforceQuota, skipAcl,
                    quorumListenOnAllIPs, multiAddress, observerSyncEnabled, leaderServes, snapshotCompression,
                    auditEnabled, security, readOnlyModeEnabled, localSessions, observer);
        }

        static int derived(int ticks, int tickTimeMs) {
            // saturate instead of overflowing for absurd but positive tick times
            return (int) Math.min(Integer.MAX_VALUE, (long) ticks * tickTimeMs);
        }
    }
}
