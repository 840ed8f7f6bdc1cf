package dev.warden.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a ZooKeeper-style zoo.cfg into a {@link ServerConfig}. Keys are spelled as ZooKeeper
 * spells them; where ZooKeeper reads a setting from a "zookeeper."-prefixed system property,
 * that spelling is accepted in the file too, and so is the spelling without the prefix (ZooKeeper
 * turns an unknown zoo.cfg key {@code k} into the property {@code zookeeper.k}). Relative
 * directories are kept relative, i.e. they resolve against the server's working directory, as in
 * ZooKeeper. ZooKeeper keys Warden does not implement are refused or warned about
 * ({@link UnimplementedZooKeeperKeys}); other unknown keys are warned about.
 */
public final class ConfigLoader {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);

    /** ZooKeeper clamps a smaller retain count to this minimum instead of refusing to start. */
    private static final int MIN_SNAP_RETAIN_COUNT = 3;

    /** Ensemble keys that mean nothing to a standalone server; it warns about them and ignores them. */
    private static final Set<String> STANDALONE_IGNORED_KEYS = Set.of(
            "myid", "initLimit", "syncLimit", "peerType", "standaloneEnabled", "quorumListenOnAllIPs",
            EnsembleKeys.VERSION_KEY);

    @FunctionalInterface
    private interface Apply {
        void apply(ServerConfig.Builder builder, String writtenKey, String value, Consumer<String> warnings);
    }

    /** One setting: its names (canonical first, then accepted aliases) and how to apply a value. */
    private record Setting(List<String> names, Apply apply) {
        static Setting of(Apply apply, String... names) {
            return new Setting(List.of(names), apply);
        }
    }

    private static final List<Setting> SETTINGS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
            Setting.of((b, k, v, w) -> b.tickTimeMs(asInt(ServerConfig.Range.TICK_TIME, k, v)), "tickTime"),
            Setting.of((b, k, v, w) -> b.dataDir(asPath(k, v)), "dataDir"),
            Setting.of((b, k, v, w) -> b.dataLogDir(asPath(k, v)), "dataLogDir"),
            Setting.of((b, k, v, w) -> b.clientPort(asInt(ServerConfig.Range.CLIENT_PORT, k, v)), "clientPort"),
            Setting.of((b, k, v, w) -> b.clientPortAddress(v), "clientPortAddress"),
            Setting.of((b, k, v, w) -> b.maxClientCnxns(asInt(ServerConfig.Range.MAX_CLIENT_CNXNS, k, v)),
                    "maxClientCnxns"),
            Setting.of((b, k, v, w) -> b.minSessionTimeoutMs(asInt(ServerConfig.Range.MIN_SESSION_TIMEOUT, k, v)),
                    "minSessionTimeout"),
            Setting.of((b, k, v, w) -> b.maxSessionTimeoutMs(asInt(ServerConfig.Range.MAX_SESSION_TIMEOUT, k, v)),
                    "maxSessionTimeout"),
            Setting.of((b, k, v, w) -> b.snapCount(asInt(ServerConfig.Range.SNAP_COUNT, k, v)),
                    "snapCount", "zookeeper.snapCount"),
            Setting.of(ConfigLoader::applySnapRetainCount, "autopurge.snapRetainCount"),
            Setting.of((b, k, v, w) -> b.autopurgePurgeIntervalHours(asInt(ServerConfig.Range.PURGE_INTERVAL, k, v)),
                    "autopurge.purgeInterval"),
            Setting.of((b, k, v, w) -> b.juteMaxBuffer(asInt(ServerConfig.Range.JUTE_MAX_BUFFER, k, v)),
                    "jute.maxbuffer"),
            Setting.of(ConfigLoader::applyWhitelist, "4lw.commands.whitelist", "zookeeper.4lw.commands.whitelist"),
            Setting.of((b, k, v, w) -> b.superDigest(v),
                    "superDigest", "zookeeper.DigestAuthenticationProvider.superDigest",
                    "DigestAuthenticationProvider.superDigest"),
            Setting.of((b, k, v, w) -> b.extendedTypesEnabled(asBoolean(k, v)),
                    "extendedTypesEnabled", "zookeeper.extendedTypesEnabled"),
            Setting.of((b, k, v, w) -> b.forceSync(asBoolean(k, v)), "forceSync", "zookeeper.forceSync"),
            Setting.of((b, k, v, w) -> b.globalOutstandingLimit(asInt(ServerConfig.Range.GLOBAL_OUTSTANDING_LIMIT, k, v)),
                    "globalOutstandingLimit", "zookeeper.globalOutstandingLimit"),
            Setting.of((b, k, v, w) -> b.maxWatchesPerSession(asInt(ServerConfig.Range.MAX_WATCHES_PER_SESSION, k, v)),
                    "maxWatchesPerSession"),
            Setting.of((b, k, v, w) -> b.containerCheckIntervalMs(ServerConfig.Range.CONTAINER_CHECK_INTERVAL.parse(k, v)),
                    "znode.container.checkIntervalMs"),
            Setting.of((b, k, v, w) -> b.sessionlessConnectionTimeoutMs(ServerConfig.Range.SESSIONLESS_TIMEOUT.parse(k, v)),
                    "sessionlessConnectionTimeoutMs", "zookeeper.nio.sessionlessCnxnTimeout",
                    "nio.sessionlessCnxnTimeout"),
            Setting.of((b, k, v, w) -> b.preAllocSizeBytes(ServerConfig.Range.PRE_ALLOC_SIZE_KIB.parse(k, v) * 1024),
                    "preAllocSize", "zookeeper.preAllocSize"),
            Setting.of((b, k, v, w) -> b.fsyncWarningThresholdMs(ServerConfig.Range.FSYNC_WARNING_THRESHOLD.parse(k, v)),
                    "fsync.warningthresholdms", "zookeeper.fsync.warningthresholdms"),
            Setting.of((b, k, v, w) -> b.txnLogDirectIo(asBoolean(k, v)), "txnLogDirectIo"),
            Setting.of((b, k, v, w) -> b.inlineIdleWrites(asBoolean(k, v)), "inlineIdleWrites"),
            Setting.of((b, k, v, w) -> b.digestEnabled(asBoolean(k, v)), "digest.enabled", "zookeeper.digest.enabled"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withEnabled(asBoolean(k, v))),
                    "admin.enableServer", "zookeeper.admin.enableServer"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withAddress(v)),
                    "admin.serverAddress", "zookeeper.admin.serverAddress"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withPort(asInt(ServerConfig.Range.ADMIN_PORT, k, v))),
                    "admin.serverPort", "zookeeper.admin.serverPort"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withCommandUrl(v)),
                    "admin.commandURL", "zookeeper.admin.commandURL"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withIdleTimeoutMs(
                    ServerConfig.Range.ADMIN_IDLE_TIMEOUT.parse(k, v))), "admin.idleTimeout", "zookeeper.admin.idleTimeout"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withRateLimiterIntervalMs(
                    ServerConfig.Range.ADMIN_RATE_LIMITER_INTERVAL.parse(k, v))), "admin.rateLimiterIntervalInMS",
                    "zookeeper.admin.rateLimiterIntervalInMS"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withRestoreEnabled(asBoolean(k, v))),
                    "admin.restore.enabled", "zookeeper.admin.restore.enabled"),
            Setting.of((b, k, v, w) -> b.adminServer(b.adminServer().withSnapshotEnabled(asBoolean(k, v))),
                    "admin.snapshot.enabled", "zookeeper.admin.snapshot.enabled"),
            Setting.of((b, k, v, w) -> b.enforceQuota(asBoolean(k, v)), "enforceQuota", "zookeeper.enforceQuota"),
            Setting.of((b, k, v, w) -> b.observerSyncEnabled(asBoolean(k, v)),
                    "syncEnabled", "observer.syncEnabled", "zookeeper.observer.syncEnabled"),
            Setting.of((b, k, v, w) -> b.observerMasterPort(asInt(ServerConfig.Range.OBSERVER_MASTER_PORT, k, v)),
                    "observerMasterPort", "zookeeper.observerMasterPort"),
            Setting.of((b, k, v, w) -> b.observerReconnectDelayMs(ServerConfig.Range.OBSERVER_RECONNECT_DELAY.parse(k, v)),
                    "observer.reconnectDelayMs", "zookeeper.observer.reconnectDelayMs"),
            Setting.of((b, k, v, w) -> b.multiAddress(b.multiAddress().withEnabled(asBoolean(k, v))),
                    "multiAddress.enabled", "zookeeper.multiAddress.enabled"),
            Setting.of((b, k, v, w) -> b.multiAddress(b.multiAddress().withReachabilityCheckEnabled(asBoolean(k, v))),
                    "multiAddress.reachabilityCheckEnabled", "zookeeper.multiAddress.reachabilityCheckEnabled"),
            Setting.of((b, k, v, w) -> b.multiAddress(b.multiAddress().withReachabilityCheckTimeoutMs(
                    asInt(ServerConfig.Range.MULTI_ADDRESS_REACHABILITY_TIMEOUT, k, v))),
                    "multiAddress.reachabilityCheckTimeoutMs", "zookeeper.multiAddress.reachabilityCheckTimeoutMs"),
            Setting.of(ConfigLoader::applySkipAcl, "skipACL", "zookeeper.skipACL"),
            Setting.of(ConfigLoader::applyLeaderServes, "leaderServes", "zookeeper.leaderServes"),
            Setting.of((b, k, v, w) -> b.readOnlyModeEnabled(asBoolean(k, v)), "readonlymode.enabled"),
            Setting.of(ConfigLoader::applySnapshotCompression, "snapshot.compression.method",
                    "zookeeper.snapshot.compression.method"),
            Setting.of((b, k, v, w) -> b.auditEnabled(asBoolean(k, v)), "audit.enable", "zookeeper.audit.enable"),
            // ZooKeeper reads these two from zoo.cfg only, never as system properties
            Setting.of((b, k, v, w) -> b.localSessions(b.localSessions().withEnabled(asBoolean(k, v))),
                    "localSessionsEnabled"),
            Setting.of((b, k, v, w) -> b.localSessions(b.localSessions().withUpgradingEnabled(asBoolean(k, v))),
                    "localSessionsUpgradingEnabled"),
            Setting.of(ConfigLoader::applyMetricsProvider, "metricsProvider.className"),
            Setting.of((b, k, v, w) -> b.metrics(b.metrics().withHttpHost(v)), "metricsProvider.httpHost"),
            Setting.of((b, k, v, w) -> b.metrics(b.metrics().withHttpPort(asInt(ServerConfig.Range.METRICS_PORT, k, v))),
                    "metricsProvider.httpPort"),
            Setting.of((b, k, v, w) -> b.metrics(b.metrics().withExportJvmInfo(asBoolean(k, v))),
                    "metricsProvider.exportJvmInfo")),
            // the AdminServer's HTTPS keys, each as written and with "zookeeper." (its stores: adminStores)
            AdminTlsSettings.KEYS.stream().map(key -> Setting.of((b, k, v, w) -> b.adminServer(
                    b.adminServer().withTls(b.adminServer().tls().with(key, v))), key, "zookeeper." + key))).toList();

    private ConfigLoader() {
    }

    /**
     * Reads a zoo.cfg file (UTF-8, java.util.Properties syntax), the dynamic config file it
     * names, if any, and the ZooKeeper system properties of this JVM (as ZooKeeper does, so
     * {@code -Dzookeeper.4lw.commands.whitelist=*} in a start script keeps working); warnings go
     * to the log.
     */
    public static ServerConfig load(Path zooCfg) {
        return load(zooCfg, System.getProperties(), message -> LOG.warn("{}: {}", zooCfg, message));
    }

    /**
     * The configuration of a server started without a zoo.cfg: the defaults and the ZooKeeper
     * system properties of this JVM; warnings go to the log.
     */
    public static ServerConfig fromSystemProperties() {
        return fromSources(new Properties(), System.getProperties(), null,
                message -> LOG.warn("system properties: {}", message));
    }

    /** As {@link #load(Path)}, from the file alone, handing each warning (an ignored key, say) to {@code warnings}. */
    public static ServerConfig load(Path zooCfg, Consumer<String> warnings) {
        return load(zooCfg, new Properties(), warnings);
    }

    /**
     * As {@link #load(Path)}, taking the ZooKeeper server properties among {@code jvmProperties}
     * (see {@link ZooKeeperSystemProperties}) and handing each warning to {@code warnings}.
     */
    public static ServerConfig load(Path zooCfg, Properties jvmProperties, Consumer<String> warnings) {
        return fromSources(readFile(zooCfg), jvmProperties, zooCfg, warnings);
    }

    /**
     * Builds a config from zoo.cfg properties and the ZooKeeper server properties among
     * {@code jvmProperties}; a property and a file key for the same setting must agree.
     */
    public static ServerConfig fromProperties(Properties properties, Properties jvmProperties, Consumer<String> warnings) {
        return fromSources(properties, jvmProperties, null, warnings);
    }

    private static Properties readFile(Path zooCfg) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(zooCfg);
        } catch (NoSuchFileException missing) {
            throw new ConfigException(null, "config file " + zooCfg + " does not exist", missing);
        } catch (IOException unreadable) {
            throw new ConfigException(null, "cannot read config file " + zooCfg + ": " + unreadable, unreadable);
        }
        Properties properties = new Properties();
        try {
            properties.load(new java.io.StringReader(ConfigText.decodeUtf8(zooCfg, bytes)));
        } catch (IOException | IllegalArgumentException unreadable) {
            // IllegalArgumentException: a malformed \\uXXXX escape in the file
            throw new ConfigException(null, "cannot read config file " + zooCfg + ": " + unreadable.getMessage(),
                    unreadable);
        }
        return properties;
    }

    /**
     * Builds a config from zoo.cfg properties. Values are trimmed. Unknown and ensemble-only keys
     * are reported to {@code warnings} and ignored; bad values throw {@link ConfigException}. A
     * relative {@code dynamicConfigFile} resolves against the working directory.
     */
    public static ServerConfig fromProperties(Properties properties, Consumer<String> warnings) {
        return fromSources(properties, new Properties(), null, warnings);
    }

    /**
     * The file's keys and the JVM's ZooKeeper properties together; {@code zooCfg}, if not null,
     * is the file the properties came from.
     */
    private static ServerConfig fromSources(Properties file, Properties jvmProperties, Path zooCfg,
                                            Consumer<String> warnings) {
        Set<String> fromJvm = new HashSet<>();
        Properties properties = SystemPropertyMerge.merge(file, jvmProperties, fromJvm);
        ServerConfig.Builder builder = ServerConfig.builder().configFile(zooCfg);
        Set<String> recognised = new HashSet<>();
        for (Setting setting : SETTINGS) {
            String chosenKey = null;
            String chosenValue = null;
            for (String name : setting.names()) {
                String value = properties.getProperty(name);
                if (value == null) {
                    continue;
                }
                recognised.add(name);
                value = value.trim();
                if (chosenKey == null) {
                    chosenKey = name;
                    chosenValue = value;
                } else if (!chosenValue.equals(value)) {
                    throw new ConfigException(name, "both " + shown(chosenKey, fromJvm) + "='" + chosenValue
                            + "' and " + shown(name, fromJvm) + "='" + value + "' are set: they are the same"
                            + " setting, keep one");
                }
            }
            if (chosenKey != null) {
                setting.apply().apply(builder, chosenKey, chosenValue, warnings);
            }
        }
        // The JVM's ZooKeeper properties are already among the merged keys. The JAAS file is a
        // JVM-wide setting the JDK's own login code reads from the system property, so the server
        // takes it from there when neither the file nor the given properties name it.
        builder.security(securityKeys(properties, jvmProperties, recognised, fromJvm));
        adminStores(builder, properties, recognised, fromJvm);
        // ZooKeeper keys Warden does not implement, first: a refused one explains more than any
        // error it would cause in the member lines (a multi-address line, say)
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (!recognised.contains(key) && !(fromJvm.contains(key) && isFileOnlySetting(key))
                    && UnimplementedZooKeeperKeys.check(key, shown(key, fromJvm), properties.getProperty(key), warnings)) {
                recognised.add(key);
            }
        }
        boolean ensemble = EnsembleKeys.apply(properties, zooCfg, builder, recognised, warnings);
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (recognised.contains(key)) {
                continue;
            }
            if (fromJvm.contains(key)) {
                warnings.accept(unknownProperty(key));
            } else if (STANDALONE_IGNORED_KEYS.contains(key)) {
                warnings.accept("ignoring '" + key + "': " + (ensemble ? "Warden does not support this ensemble setting"
                        : "ensemble keys are ignored in standalone mode"));
            } else {
                warnings.accept("ignoring unknown configuration key '" + key + "'");
            }
        }
        return builder.build();
    }

    /**
     * The security keys (docs/SECURITY.md). The JVM's ZooKeeper properties are already among the
     * merged keys; an error about one of them names it as the operator wrote it
     * ({@code -Dzookeeper.sslQuorum}). The JAAS file is a JVM-wide setting the JDK's own login
     * code reads from the system property, so it comes from there when the file does not name it.
     */
    private static dev.warden.server.security.SecurityConfig securityKeys(Properties merged, Properties jvmProperties,
                                                                      Set<String> recognised, Set<String> fromJvm) {
        // ZooKeeper reads the members' SASL keys only from zoo.cfg: as properties they stay unread
        // (and are warned about as such), so a stray -D cannot turn authentication between members on.
        Properties readable = new Properties();
        merged.forEach((key, value) -> {
            if (!(fromJvm.contains((String) key) && SecurityKeys.isFileOnly(bareKey((String) key)))) {
                readable.put(key, value);
            }
        });
        try {
            return SecurityKeys.apply(readable, recognised, name -> name.equals(SecurityKeys.JAAS_KEY)
                    ? jvmProperties.getProperty(name, System.getProperty(name)) : null);
        } catch (ConfigException bad) {
            throw asWritten(bad, fromJvm);
        }
    }

    /**
     * With admin.forceHttps or admin.portUnification, the AdminServer serves HTTPS with the
     * members' ssl.quorum stores, read by the code that reads them for sslQuorum; otherwise they
     * stay unread here (and are warned about unless sslQuorum reads them).
     */
    private static void adminStores(ServerConfig.Builder builder, Properties merged, Set<String> recognised,
                                    Set<String> fromJvm) {
        AdminServerSettings admin = builder.adminServer();
        if (!admin.tls().httpsOn()) {
            return;
        }
        try {
            builder.adminServer(admin.withTls(admin.tls().withStores(SecurityKeys.adminStores(merged, recognised))));
        } catch (ConfigException bad) {
            throw asWritten(bad, fromJvm);
        }
    }

    /** An error about a key that came from a JVM property, naming it as the operator wrote it ({@code -Dzookeeper.k}). */
    private static ConfigException asWritten(ConfigException bad, Set<String> fromJvm) {
        String key = bad.key();
        String property = key == null ? null : fromJvm.contains(key) ? key
                : fromJvm.contains(ZooKeeperSystemProperties.PREFIX + key) ? ZooKeeperSystemProperties.PREFIX + key
                : null;
        if (property == null || !bad.getMessage().startsWith(key)) {
            return bad;
        }
        return new ConfigException(property, ZooKeeperSystemProperties.spelled(property)
                + bad.getMessage().substring(key.length()), bad);
    }

    private static String shown(String key, Set<String> fromJvm) {
        return fromJvm.contains(key) ? ZooKeeperSystemProperties.spelled(key) : key;
    }

    private static String bareKey(String propertyName) {
        return propertyName.startsWith(ZooKeeperSystemProperties.PREFIX)
                ? propertyName.substring(ZooKeeperSystemProperties.PREFIX.length()) : propertyName;
    }

    /** A "zookeeper." property naming a key that ZooKeeper, and so Warden, reads only from the file. */
    private static boolean isFileOnlySetting(String propertyName) {
        String bare = bareKey(propertyName);
        return SETTINGS.stream().anyMatch(setting -> setting.names().get(0).equals(bare))
                || SecurityKeys.isFileOnly(bare)
                || STANDALONE_IGNORED_KEYS.contains(bare) || bare.equals("dynamicConfigFile")
                || bare.equals(EnsembleKeys.RECONFIG_ENABLED_KEY)
                || MemberLines.isServerKey(bare) || MemberLines.isHierarchicalQuorumKey(bare);
    }

    private static String unknownProperty(String name) {
        String bare = name.startsWith(ZooKeeperSystemProperties.PREFIX)
                ? name.substring(ZooKeeperSystemProperties.PREFIX.length()) : name;
        boolean fileOnly = isFileOnlySetting(name);
        return "ignoring the system property " + ZooKeeperSystemProperties.spelled(name) + ": " + (fileOnly
                ? "ZooKeeper reads " + bare + " only from the config file, and so does Warden; set it there"
                : "not a ZooKeeper server setting Warden knows");
    }

    /**
     * ZooKeeper skips ACL checks for "yes" exactly and checks them for any other value; a value
     * that reads as "yes" elsewhere ("true") would mean the opposite there, so only yes and no pass.
     */
    private static void applySkipAcl(ServerConfig.Builder b, String key, String value, Consumer<String> warnings) {
        switch (value) {
            case "yes" -> b.skipAcl(true);
            case "no" -> b.skipAcl(false);
            default -> throw ConfigException.invalid(key, value, "must be yes or no: ZooKeeper skips ACL checks only"
                    + " for yes and checks them for any other value, so '" + value + "' would not mean what it seems");
        }
    }

    /**
     * ZooKeeper's leader stops taking clients for "no" exactly and takes them for any other
     * value; as for skipACL, a value that reads as "no" elsewhere ("false") would mean the
     * opposite there, so only yes and no pass.
     */
    private static void applyLeaderServes(ServerConfig.Builder b, String key, String value, Consumer<String> warnings) {
        switch (value) {
            case "yes" -> b.leaderServes(true);
            case "no" -> b.leaderServes(false);
            default -> throw ConfigException.invalid(key, value, "must be yes or no: ZooKeeper's leader refuses clients"
                    + " only for no and serves them for any other value, so '" + value + "' would not mean what it"
                    + " seems");
        }
    }

    /**
     * ZooKeeper's methods: gz, snappy, or none (empty). Warden writes gz; snappy, which needs a
     * native library, is written uncompressed with a warning (only disk space differs).
     */
    private static void applySnapshotCompression(ServerConfig.Builder b, String key, String value,
                                                 Consumer<String> warnings) {
        switch (value) {
            case "" -> b.snapshotCompression(dev.warden.storage.SnapshotCompression.NONE);
            case "gz" -> b.snapshotCompression(dev.warden.storage.SnapshotCompression.GZIP);
            case "snappy" -> {
                b.snapshotCompression(dev.warden.storage.SnapshotCompression.NONE);
                warnings.accept("ignoring '" + key + "': Warden compresses snapshots with gz only; with snappy they"
                        + " are written uncompressed (set gz to compress them)");
            }
            default -> throw ConfigException.invalid(key, value, "must be gz, snappy or empty (no compression), as"
                    + " in ZooKeeper");
        }
    }

    /** Only ZooKeeper's Prometheus provider is built in; another provider class is ignored with a warning. */
    private static void applyMetricsProvider(ServerConfig.Builder b, String key, String value, Consumer<String> warnings) {
        if (value.equals(MetricsSettings.PROMETHEUS_PROVIDER)) {
            b.metrics(b.metrics().withPrometheus(true));
        } else {
            warnings.accept("ignoring '" + key + "=" + value + "': Warden has ZooKeeper's Prometheus provider built in ("
                    + MetricsSettings.PROMETHEUS_PROVIDER + ") and loads no other; mntr and the AdminServer still"
                    + " give every figure");
        }
    }

    private static void applySnapRetainCount(ServerConfig.Builder b, String key, String value, Consumer<String> warnings) {
        long count;
        try {
            count = Long.parseLong(value);
        } catch (NumberFormatException notANumber) {
            throw ConfigException.invalid(key, value, ServerConfig.Range.SNAP_RETAIN_COUNT.allowed);
        }
        if (count >= 0 && count < MIN_SNAP_RETAIN_COUNT) {
            warnings.accept(key + "=" + count + " is below the minimum; using " + MIN_SNAP_RETAIN_COUNT);
            count = MIN_SNAP_RETAIN_COUNT;
        }
        b.autopurgeSnapRetainCount(asInt(ServerConfig.Range.SNAP_RETAIN_COUNT, key, Long.toString(count)));
    }

    private static void applyWhitelist(ServerConfig.Builder b, String key, String value, Consumer<String> warnings) {
        Set<String> words = new TreeSet<>();
        for (String word : value.split(",")) {
            String w = word.trim();
            if (w.isEmpty()) {
                continue;
            }
            if (w.equals("*") || ServerConfig.KNOWN_FOUR_LETTER_WORDS.contains(w)) {
                words.add(w);
            } else {
                warnings.accept(key + ": ignoring unknown four-letter word '" + w + "'");
            }
        }
        b.fourLetterWordWhitelist(words);
    }

    private static int asInt(ServerConfig.Range range, String key, String value) {
        return (int) range.parse(key, value);
    }

    private static Path asPath(String key, String value) {
        if (value.isEmpty()) {
            throw ConfigException.invalid(key, value, "must be a directory path");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException bad) {
            throw ConfigException.invalid(key, value, "must be a directory path (" + bad.getReason() + ")");
        }
    }

    static boolean asBoolean(String key, String value) {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes" -> {
                return true;
            }
            case "false", "no" -> {
                return false;
            }
            default -> throw ConfigException.invalid(key, value, "must be true/false or yes/no");
        }
    }
}
