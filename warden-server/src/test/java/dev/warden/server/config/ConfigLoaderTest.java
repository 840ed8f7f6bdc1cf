package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderTest {
    private final List<String> warnings = new ArrayList<>();

    private ServerConfig parse(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return ConfigLoader.fromProperties(p, warnings::add);
    }

    @Test
    void emptyPropertiesGiveTheBuilderDefaults() {
        assertEquals(ServerConfig.builder().build(), parse());
        assertTrue(warnings.isEmpty());
    }

    static Stream<Arguments> everyKey() {
        return Stream.of(
                key("tickTime", " 250 ", c -> c.tickTimeMs(), 250),
                key("dataDir", "/var/warden", c -> c.dataDir(), Path.of("/var/warden")),
                key("dataLogDir", "/fast/log", c -> c.dataLogDir(), Path.of("/fast/log")),
                key("clientPort", "0", c -> c.clientPort(), 0),
                key("clientPortAddress", "0.0.0.0 ", c -> c.clientPortAddress(), "0.0.0.0"),
                key("maxClientCnxns", "0", c -> c.maxClientCnxns(), 0),
                key("minSessionTimeout", "7000", c -> c.minSessionTimeoutMs(), 7000),
                key("maxSessionTimeout", "90000", c -> c.maxSessionTimeoutMs(), 90000),
                key("snapCount", "5000", c -> c.snapCount(), 5000),
                key("zookeeper.snapCount", "5001", c -> c.snapCount(), 5001),
                key("autopurge.snapRetainCount", "10", c -> c.autopurgeSnapRetainCount(), 10),
                key("autopurge.purgeInterval", "12", c -> c.autopurgePurgeIntervalHours(), 12),
                key("jute.maxbuffer", "4194304", c -> c.juteMaxBuffer(), 4194304),
                key("4lw.commands.whitelist", "ruok, mntr ,stat", c -> c.fourLetterWordWhitelist(),
                        Set.of("ruok", "mntr", "stat", "srvr")),
                key("zookeeper.4lw.commands.whitelist", "*", c -> c.fourLetterWordWhitelist(),
                        ServerConfig.KNOWN_FOUR_LETTER_WORDS),
                key("superDigest", ServerConfigTest.SUPER, c -> c.superDigest(), ServerConfigTest.SUPER),
                key("zookeeper.DigestAuthenticationProvider.superDigest", ServerConfigTest.SUPER,
                        c -> c.superDigest(), ServerConfigTest.SUPER),
                key("DigestAuthenticationProvider.superDigest", ServerConfigTest.SUPER,
                        c -> c.superDigest(), ServerConfigTest.SUPER),
                key("extendedTypesEnabled", "false", c -> c.extendedTypesEnabled(), false),
                key("zookeeper.extendedTypesEnabled", "FALSE", c -> c.extendedTypesEnabled(), false),
                key("forceSync", "no", c -> c.forceSync(), false),
                key("zookeeper.forceSync", "No", c -> c.forceSync(), false),
                key("globalOutstandingLimit", "50", c -> c.globalOutstandingLimit(), 50),
                key("zookeeper.globalOutstandingLimit", "51", c -> c.globalOutstandingLimit(), 51),
                key("maxWatchesPerSession", "100", c -> c.maxWatchesPerSession(), 100),
                key("znode.container.checkIntervalMs", "1000", c -> c.containerCheckIntervalMs(), 1000L),
                key("sessionlessConnectionTimeoutMs", "2000", c -> c.sessionlessConnectionTimeoutMs(), 2000L),
                key("zookeeper.nio.sessionlessCnxnTimeout", "2001", c -> c.sessionlessConnectionTimeoutMs(), 2001L),
                key("nio.sessionlessCnxnTimeout", "2002", c -> c.sessionlessConnectionTimeoutMs(), 2002L),
                key("preAllocSize", "1024", c -> c.preAllocSizeBytes(), 1024L * 1024),
                key("zookeeper.preAllocSize", "16", c -> c.preAllocSizeBytes(), 16L * 1024),
                key("fsync.warningthresholdms", "250", c -> c.fsyncWarningThresholdMs(), 250L),
                key("zookeeper.fsync.warningthresholdms", "5000", c -> c.fsyncWarningThresholdMs(), 5000L),
                key("txnLogDirectIo", "no", c -> c.txnLogDirectIo(), false),
                key("inlineIdleWrites", "false", c -> c.inlineIdleWrites(), false),
                key("admin.rateLimiterIntervalInMS", "1000", c -> c.adminServer().rateLimiterIntervalMs(), 1000L),
                key("zookeeper.admin.rateLimiterIntervalInMS", "0", c -> c.adminServer().rateLimiterIntervalMs(), 0L),
                key("admin.restore.enabled", "false", c -> c.adminServer().restoreEnabled(), false),
                key("zookeeper.admin.restore.enabled", "false", c -> c.adminServer().restoreEnabled(), false));
    }

    private static Arguments key(String key, String value, Function<ServerConfig, Object> get, Object expected) {
        return Arguments.of(key, value, get, expected);
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("everyKey")
    void everyKeyIsReadTrimmedWithoutWarnings(String key, String value, Function<ServerConfig, Object> get,
                                              Object expected) {
        assertEquals(expected, get.apply(parse(key, value)));
        assertEquals(List.of(), warnings);
    }

    @Test
    void booleansAcceptTrueAndYes() {
        assertTrue(parse("forceSync", "yes").forceSync());
        assertTrue(parse("forceSync", "true").forceSync());
        assertTrue(parse("extendedTypesEnabled", "YES").extendedTypesEnabled());
    }

    @Test
    void relativeDataDirStaysRelativeToTheWorkingDirectory() {
        ServerConfig c = parse("dataDir", "zkdata");
        assertFalse(c.dataDir().isAbsolute());
        assertEquals(Path.of("zkdata"), c.dataLogDir());
    }

    @Test
    void sessionTimeoutDefaultsFollowTheFilesTickTime() {
        ServerConfig c = parse("tickTime", "500");
        assertEquals(1000, c.minSessionTimeoutMs());
        assertEquals(10000, c.maxSessionTimeoutMs());
    }

    @ParameterizedTest
    @CsvSource({"myid", "initLimit", "syncLimit", "peerType", "version"})
    void ensembleKeysWarnThatTheyAreIgnored(String key) {
        assertEquals(ServerConfig.builder().build(), parse(key, "5"));
        assertEquals(List.of("ignoring '" + key + "': ensemble keys are ignored in standalone mode"), warnings);
    }

    @Test
    void unknownKeysWarnNamingTheKey() {
        parse("tickTme", "2000", "colour", "blue");
        assertEquals(List.of("ignoring unknown configuration key 'colour'",
                "ignoring unknown configuration key 'tickTme'"), warnings);
    }

    @Test
    void unknownFourLetterWordsAreDroppedWithAWarning() {
        ServerConfig c = parse("4lw.commands.whitelist", "ruok,kill,");
        assertEquals(Set.of("ruok", "srvr"), c.fourLetterWordWhitelist());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("'kill'"), warnings.get(0));
    }

    @Test
    void emptyWhitelistStillAllowsSrvr() {
        assertEquals(Set.of("srvr"), parse("4lw.commands.whitelist", "").fourLetterWordWhitelist());
    }

    @Test
    void snapRetainCountBelowThreeIsRaisedWithAWarning() {
        assertEquals(3, parse("autopurge.snapRetainCount", "1").autopurgeSnapRetainCount());
        assertEquals(List.of("autopurge.snapRetainCount=1 is below the minimum; using 3"), warnings);
    }

    @Test
    void sameValueUnderBothSpellingsIsAccepted() {
        assertEquals(77, parse("snapCount", "77", "zookeeper.snapCount", " 77").snapCount());
    }

    @Test
    void differentValuesUnderBothSpellingsAreRejected() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> parse("snapCount", "77", "zookeeper.snapCount", "78"));
        assertTrue(e.getMessage().contains("snapCount='77'"), e.getMessage());
        assertTrue(e.getMessage().contains("zookeeper.snapCount='78'"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "tickTime|abc|must be a positive number of milliseconds",
            "tickTime|0|must be a positive number of milliseconds",
            "tickTime|-3000|must be a positive number of milliseconds",
            "tickTime|3000000000|must be a positive number of milliseconds",
            "clientPort|65536|must be a port from 0 to 65535",
            "clientPort|-1|must be a port from 0 to 65535",
            "clientPort|21 81|must be a port from 0 to 65535",
            "maxClientCnxns|-1|must be 0 (unlimited)",
            "minSessionTimeout|ten|must be a positive number of milliseconds",
            "maxSessionTimeout|0|must be a positive number of milliseconds",
            "snapCount|1|at least 2",
            "zookeeper.snapCount|x|at least 2",
            "autopurge.snapRetainCount|-1|at least 3",
            "autopurge.snapRetainCount|many|at least 3",
            "autopurge.purgeInterval|-1|must be 0 (purging disabled)",
            "jute.maxbuffer|1.5|must be at least 1024 bytes",
            "superDigest|super|must look like 'super:<base64 of a SHA-1 digest>'",
            "extendedTypesEnabled|maybe|must be true/false or yes/no",
            "forceSync|1|must be true/false or yes/no",
            "globalOutstandingLimit|0|must be a positive number of requests",
            "maxWatchesPerSession|-5|must be a positive number of watches",
            "znode.container.checkIntervalMs|0|must be a positive number of milliseconds",
            "sessionlessConnectionTimeoutMs|soon|must be a positive number of milliseconds",
            "preAllocSize|0|must be a positive number of KiB",
            "zookeeper.preAllocSize|-64|must be a positive number of KiB",
            "fsync.warningthresholdms|0|must be a positive number of milliseconds",
            "zookeeper.fsync.warningthresholdms|soon|must be a positive number of milliseconds",
            "txnLogDirectIo|sometimes|must be true/false or yes/no",
            "inlineIdleWrites|often|must be true/false or yes/no",
            "observerMasterPort|70000|must be a port from 1 to 65535",
            "zookeeper.observerMasterPort|-1|must be a port from 1 to 65535",
            "observer.reconnectDelayMs|-5|must be 0 (no delay, the default) or a positive number of milliseconds",
            "zookeeper.observer.reconnectDelayMs|later|must be 0 (no delay, the default) or a positive number",
            "clientPortAddress|''|must be a host name or IP address",
            "dataDir|''|must be a directory path",
            "dataLogDir|a\u0000b|must be a directory path"})
    void badValuesNameTheKeyTheValueAndWhatIsAllowed(String key, String value, String allowed) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(key, value));
        assertEquals(key, e.key());
        assertTrue(e.getMessage().startsWith(key + "='" + value + "' is invalid: "), e.getMessage());
        assertTrue(e.getMessage().contains(allowed), e.getMessage());
    }

    @Test
    void minAboveMaxSessionTimeoutIsRejected() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> parse("minSessionTimeout", "50000", "maxSessionTimeout", "40000"));
        assertEquals("minSessionTimeout=50000 is greater than maxSessionTimeout=40000: "
                + "the minimum session timeout must not exceed the maximum", e.getMessage());
    }

    @Test
    void minAboveTheDerivedMaxIsRejected() {
        // with the default tickTime the derived maximum is 60000 ms
        assertThrows(ConfigException.class, () -> parse("minSessionTimeout", "60001"));
    }

    @Test
    void toPropertiesReadsBackToAnEqualConfig() {
        ServerConfig original = ServerConfig.builder().tickTimeMs(250).dataDir(Path.of("d"))
                .dataLogDir(Path.of("l")).clientPort(0).maxClientCnxns(5).minSessionTimeoutMs(900)
                .snapCount(10).autopurgeSnapRetainCount(4).autopurgePurgeIntervalHours(1)
                .juteMaxBuffer(2048).fourLetterWordWhitelist(Set.of("ruok", "conf")).superDigest(ServerConfigTest.SUPER)
                .extendedTypesEnabled(false).forceSync(false).globalOutstandingLimit(3)
                .maxWatchesPerSession(4).containerCheckIntervalMs(5).sessionlessConnectionTimeoutMs(6)
                .preAllocSizeBytes(8 * 1024).build();
        assertEquals(original, ConfigLoader.fromProperties(original.toProperties(), warnings::add));
        assertEquals(ServerConfig.builder().build(),
                ConfigLoader.fromProperties(ServerConfig.builder().build().toProperties(), warnings::add));
        assertEquals(List.of(), warnings);
    }

    @Test
    void loadReadsAZooCfgFile(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, String.join("\n",
                "# a typical ZooKeeper standalone file",
                "tickTime=2000",
                "dataDir=/tmp/zookeeper   ",
                "clientPort = 2182",
                "initLimit=5",
                "server.1=localhost:2888:3888",
                ""), StandardCharsets.UTF_8);
        ServerConfig c = ConfigLoader.load(cfg, warnings::add);
        assertEquals(2000, c.tickTimeMs());
        assertEquals(Path.of("/tmp/zookeeper"), c.dataDir());
        assertEquals(2182, c.clientPort());
        assertEquals(4000, c.minSessionTimeoutMs());
        // one server line with standaloneEnabled (the default) means standalone: one warning says so
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("running standalone"), warnings.get(0));
        assertFalse(c.isEnsemble());
    }

    @Test
    void missingFileIsAConfigErrorNamingThePath(@TempDir Path dir) {
        Path cfg = dir.resolve("nope.cfg");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(cfg));
        assertNull(e.key());
        assertTrue(e.getMessage().contains(cfg.toString()), e.getMessage());
    }

    @Test
    void malformedEscapeIsAConfigError(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "dataDir=\\u12G4\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(cfg));
        assertTrue(e.getMessage().startsWith("cannot read config file"), e.getMessage());
    }

    private ServerConfig parseWithJvm(Properties file, String... jvmKeyValues) {
        Properties jvm = new Properties();
        for (int i = 0; i < jvmKeyValues.length; i += 2) {
            jvm.setProperty(jvmKeyValues[i], jvmKeyValues[i + 1]);
        }
        return ConfigLoader.fromProperties(file, jvm, warnings::add);
    }

    @Test
    void zooKeeperSystemPropertiesConfigureTheServerAsZooKeepersDo() {
        ServerConfig c = parseWithJvm(new Properties(), "zookeeper.4lw.commands.whitelist", "*",
                "zookeeper.DigestAuthenticationProvider.superDigest", "super:D/InIHSb7yEEbrWz8b9l71RjZJU=", "jute.maxbuffer", "4194304",
                "java.version", "17", "zookeeper.sasl.client", "false", "zookeeper.log.dir", "/var/log/zk");
        assertTrue(c.fourLetterWordWhitelist().containsAll(Set.of("mntr", "ruok", "cons")), c.fourLetterWordWhitelist().toString());
        assertEquals("super:D/InIHSb7yEEbrWz8b9l71RjZJU=", c.superDigest());
        assertEquals(4194304, c.juteMaxBuffer());
        assertEquals(List.of(), warnings, "the JVM's own and ZooKeeper's client properties are not server settings");
    }

    @Test
    void aSystemPropertyThatDisagreesWithTheFileStopsTheServerNamingBoth() {
        Properties file = new Properties();
        file.setProperty("4lw.commands.whitelist", "ruok");
        ConfigException e = assertThrows(ConfigException.class,
                () -> parseWithJvm(file, "zookeeper.4lw.commands.whitelist", "*"));
        assertEquals("4lw.commands.whitelist", e.key());
        assertTrue(e.getMessage().contains("-Dzookeeper.4lw.commands.whitelist='*'"), e.getMessage());
        assertTrue(e.getMessage().contains("4lw.commands.whitelist='ruok' in the config file"), e.getMessage());
        file.setProperty("snapCount", "5000");
        file.setProperty("4lw.commands.whitelist", "*");
        assertEquals(5000, parseWithJvm(file, "zookeeper.4lw.commands.whitelist", " * ").snapCount(),
                "a property that agrees with the file is fine");
    }

    @Test
    void aSystemPropertyZooKeeperDoesNotReadIsIgnoredSayingWhere() {
        assertEquals(ServerConfig.builder().build(), parseWithJvm(new Properties(), "zookeeper.tickTime", "100"));
        assertEquals(List.of("ignoring the system property -Dzookeeper.tickTime: ZooKeeper reads tickTime only from"
                + " the config file, and so does Warden; set it there"), warnings);
    }

    @Test
    void aRefusedSystemPropertyIsNamedAsTheOperatorWroteIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> parseWithJvm(new Properties(), "zookeeper.DigestAuthenticationProvider.enabled", "false"));
        assertTrue(e.getMessage().startsWith("-Dzookeeper.DigestAuthenticationProvider.enabled=false: "), e.getMessage());
    }

    @Test
    void aByteThatIsNotUtf8IsNamedWithItsLine(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        byte[] latin1 = "tickTime=2000\n# caf\u00e9\ndataDir=/tmp\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(cfg, latin1);
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(cfg, warnings::add));
        assertEquals(cfg + " line 2, byte 6 of the line: 0xE9 is not UTF-8 (was the file saved as Latin-1?). Save it"
                + " as UTF-8, or write the character as a \\uXXXX escape.", e.getMessage());
    }

    @Test
    void jutemaxbufferTooSmallForAnyRequestIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("jute.maxbuffer", "10"));
        assertTrue(e.getMessage().startsWith("jute.maxbuffer='10' is invalid: must be at least 1024 bytes"),
                e.getMessage());
    }
}
