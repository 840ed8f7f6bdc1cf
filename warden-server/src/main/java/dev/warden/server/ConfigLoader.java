package dev.warden.server;

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
            "myid", "initLimit", "syncLimit", "peerType", "standaloneEnabled", EnsembleKeys.VERSION_KEY);

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

    private static final List<Setting> SETTINGS = List.of(
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
            Setting.of((b, k, v, w) -> b.digestEnabled(asBoolean(k, v)), "digest.enabled", "zookeeper.digest.enabled"));

    private ConfigLoader() {
    }

    /**
     * Reads a zoo.cfg file (UTF-8, java.util.Properties syntax), and the dynamic config file it
     * names, if any; warnings go to the log.
     */
    public static ServerConfig load(Path zooCfg) {
        return load(zooCfg, message -> LOG.warn("{}: {}", zooCfg, message));
    }

    /** As {@link #load(Path)}, handing each warning (an ignored key, say) to {@code warnings}. */
    public static ServerConfig load(Path zooCfg, Consumer<String> warnings) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(zooCfg, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException missing) {
            throw new ConfigException(null, "config file " + zooCfg + " does not exist", missing);
        } catch (IOException | IllegalArgumentException unreadable) {
            // IllegalArgumentException: a malformed \\uXXXX escape in the file
            throw new ConfigException(null, "cannot read config file " + zooCfg + ": " + unreadable, unreadable);
        }
        return fromProperties(properties, zooCfg, warnings);
    }

    /**
     * Builds a config from zoo.cfg properties. Values are trimmed. Unknown and ensemble-only keys
     * are reported to {@code warnings} and ignored; bad values throw {@link ConfigException}. A
     * relative {@code dynamicConfigFile} resolves against the working directory.
     */
    public static ServerConfig fromProperties(Properties properties, Consumer<String> warnings) {
        return fromProperties(properties, null, warnings);
    }

    /** As above; {@code zooCfg}, if not null, is the file the properties came from. */
    private static ServerConfig fromProperties(Properties properties, Path zooCfg, Consumer<String> warnings) {
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
                    throw new ConfigException(name, "both " + chosenKey + "='" + chosenValue + "' and "
                            + name + "='" + value + "' are set: they are the same setting, keep one");
                }
            }
            if (chosenKey != null) {
                setting.apply().apply(builder, chosenKey, chosenValue, warnings);
            }
        }
        // ZooKeeper keys Warden does not implement, first: a refused one explains more than any
        // error it would cause in the member lines (a multi-address line, say)
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (!recognised.contains(key) && UnimplementedZooKeeperKeys.check(key, properties.getProperty(key), warnings)) {
                recognised.add(key);
            }
        }
        boolean ensemble = EnsembleKeys.apply(properties, zooCfg, builder, recognised, warnings);
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (recognised.contains(key)) {
                continue;
            }
            if (STANDALONE_IGNORED_KEYS.contains(key)) {
                warnings.accept("ignoring '" + key + "': " + (ensemble ? "Warden does not support this ensemble setting"
                        : "ensemble keys are ignored in standalone mode"));
            } else {
                warnings.accept("ignoring unknown configuration key '" + key + "'");
            }
        }
        return builder.build();
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
