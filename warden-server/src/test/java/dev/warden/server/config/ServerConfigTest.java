package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ServerConfigTest {

    @Test
    void defaultsMatchTheDocumentedValues() {
        ServerConfig c = ServerConfig.builder().build();
        assertEquals(3000, c.tickTimeMs());
        assertEquals(Path.of("./data"), c.dataDir());
        assertEquals(c.dataDir(), c.dataLogDir());
        assertEquals(2181, c.clientPort());
        assertEquals("127.0.0.1", c.clientPortAddress());
        assertEquals(60, c.maxClientCnxns());
        assertEquals(6000, c.minSessionTimeoutMs());
        assertEquals(60000, c.maxSessionTimeoutMs());
        assertEquals(100_000, c.snapCount());
        assertEquals(3, c.autopurgeSnapRetainCount());
        assertEquals(0, c.autopurgePurgeIntervalHours());
        assertEquals(1_048_575, c.juteMaxBuffer());
        assertEquals(Set.of("srvr"), c.fourLetterWordWhitelist());
        assertNull(c.superDigest());
        assertTrue(c.extendedTypesEnabled());
        assertTrue(c.forceSync());
        assertEquals(1000, c.globalOutstandingLimit());
        assertEquals(1_000_000, c.maxWatchesPerSession());
        assertEquals(60_000L, c.containerCheckIntervalMs());
        assertEquals(10_000L, c.sessionlessConnectionTimeoutMs());
        assertEquals(65_536L * 1024, c.preAllocSizeBytes());
        assertEquals(1, c.serverId());
    }

    @Test
    void sessionTimeoutsFollowTickTimeUnlessSet() {
        ServerConfig c = ServerConfig.builder().tickTimeMs(200).build();
        assertEquals(400, c.minSessionTimeoutMs());
        assertEquals(4000, c.maxSessionTimeoutMs());
        ServerConfig explicit = ServerConfig.builder().tickTimeMs(200)
                .minSessionTimeoutMs(1000).maxSessionTimeoutMs(9000).build();
        assertEquals(1000, explicit.minSessionTimeoutMs());
        assertEquals(9000, explicit.maxSessionTimeoutMs());
    }

    @Test
    void derivedTimeoutsSaturateInsteadOfOverflowing() {
        ServerConfig c = ServerConfig.builder().tickTimeMs(Integer.MAX_VALUE / 4).build();
        assertEquals(Integer.MAX_VALUE, c.maxSessionTimeoutMs());
    }

    @Test
    void everySetterReachesItsAccessor() {
        ServerConfig c = ServerConfig.builder()
                .tickTimeMs(250).dataDir(Path.of("/d")).dataLogDir(Path.of("/l")).clientPort(0)
                .clientPortAddress("0.0.0.0").maxClientCnxns(0).minSessionTimeoutMs(600)
                .maxSessionTimeoutMs(700).snapCount(2).autopurgeSnapRetainCount(5)
                .autopurgePurgeIntervalHours(24).juteMaxBuffer(4096)
                .fourLetterWordWhitelist(Set.of("ruok", "mntr")).superDigest(SUPER)
                .extendedTypesEnabled(false).forceSync(false).globalOutstandingLimit(7)
                .maxWatchesPerSession(9).containerCheckIntervalMs(11).sessionlessConnectionTimeoutMs(13)
                .preAllocSizeBytes(4096).serverId(3).build();
        assertEquals(250, c.tickTimeMs());
        assertEquals(Path.of("/d"), c.dataDir());
        assertEquals(Path.of("/l"), c.dataLogDir());
        assertEquals(0, c.clientPort());
        assertEquals("0.0.0.0", c.clientPortAddress());
        assertEquals(0, c.maxClientCnxns());
        assertEquals(600, c.minSessionTimeoutMs());
        assertEquals(700, c.maxSessionTimeoutMs());
        assertEquals(2, c.snapCount());
        assertEquals(5, c.autopurgeSnapRetainCount());
        assertEquals(24, c.autopurgePurgeIntervalHours());
        assertEquals(4096, c.juteMaxBuffer());
        assertEquals(Set.of("ruok", "mntr", "srvr"), c.fourLetterWordWhitelist());
        assertEquals(SUPER, c.superDigest());
        assertFalse(c.extendedTypesEnabled());
        assertFalse(c.forceSync());
        assertEquals(7, c.globalOutstandingLimit());
        assertEquals(9, c.maxWatchesPerSession());
        assertEquals(11L, c.containerCheckIntervalMs());
        assertEquals(13L, c.sessionlessConnectionTimeoutMs());
        assertEquals(4096L, c.preAllocSizeBytes());
        assertEquals(3, c.serverId());
    }

    @Test
    void anEnsemblesConfigVersionIsKeptShownInHexAndTravelsThroughToBuilder() {
        ServerConfig c = ServerConfig.builder().serverId(1).configVersion(0x100000000L)
                .members(java.util.Map.of(1L, QuorumMember.parse(1, "a:1:2"), 2L, QuorumMember.parse(2, "b:1:2"),
                        3L, QuorumMember.parse(3, "c:1:2")))
                .build();
        assertEquals(0x100000000L, c.configVersion());
        assertTrue(c.describe().endsWith("server.3=c:1:2:participant\nversion=100000000\n"), c.describe());
        assertEquals("100000000", c.toProperties().getProperty("version"));
        assertEquals(c, c.toBuilder().build());
        assertTrue(c.ensembleConfig().text().endsWith("server.3=c:1:2:participant\nversion=100000000"),
                c.ensembleConfig().text());
        assertEquals(0L, ServerConfig.builder().build().configVersion());
    }

    @Test
    void aConfigVersionMustBeNonNegativeAndBelongToAnEnsemble() {
        assertEquals("version", assertThrows(ConfigException.class,
                () -> ServerConfig.builder().configVersion(5).build()).key());
        assertEquals("version", assertThrows(ConfigException.class,
                () -> ServerConfig.builder().configVersion(-1).serverId(1)
                        .members(java.util.Map.of(1L, QuorumMember.parse(1, "a:1:2"))).build()).key());
    }

    @Test
    void largeServerIdsNeedExtendedTypesOff() {
        assertEquals(254, ServerConfig.builder().serverId(254).build().serverId());
        assertEquals(1000, ServerConfig.builder().extendedTypesEnabled(false).serverId(1000).build().serverId());
    }

    @Test
    void starWhitelistsEveryKnownWord() {
        ServerConfig c = ServerConfig.builder().fourLetterWordWhitelist(Set.of("*")).build();
        assertEquals(ServerConfig.KNOWN_FOUR_LETTER_WORDS, c.fourLetterWordWhitelist());
    }

    @Test
    void whitelistIsImmutable() {
        ServerConfig c = ServerConfig.builder().build();
        assertThrows(UnsupportedOperationException.class, () -> c.fourLetterWordWhitelist().add("dump"));
    }

    static final String SUPER = "super:D/InIHSb7yEEbrWz8b9l71RjZJU="; // base64 of a 20-byte digest

    static Stream<Arguments> badValues() {
        return Stream.of(
                bad("tickTime", b -> b.tickTimeMs(0)),
                bad("tickTime", b -> b.tickTimeMs(-5)),
                bad("dataDir", b -> b.dataDir(null)),
                bad("dataDir", b -> b.dataDir(Path.of(""))),
                bad("clientPort", b -> b.clientPort(-1)),
                bad("clientPort", b -> b.clientPort(65536)),
                bad("clientPortAddress", b -> b.clientPortAddress(" ")),
                bad("maxClientCnxns", b -> b.maxClientCnxns(-1)),
                bad("minSessionTimeout", b -> b.minSessionTimeoutMs(0)),
                bad("maxSessionTimeout", b -> b.maxSessionTimeoutMs(-1)),
                bad("minSessionTimeout", b -> b.minSessionTimeoutMs(5000).maxSessionTimeoutMs(4000)),
                bad("snapCount", b -> b.snapCount(1)),
                bad("autopurge.snapRetainCount", b -> b.autopurgeSnapRetainCount(2)),
                bad("autopurge.purgeInterval", b -> b.autopurgePurgeIntervalHours(-1)),
                bad("jute.maxbuffer", b -> b.juteMaxBuffer(0)),
                bad("4lw.commands.whitelist", b -> b.fourLetterWordWhitelist(Set.of("kill"))),
                bad("superDigest", b -> b.superDigest("nocolon")),
                bad("superDigest", b -> b.superDigest("super:not base64!")),
                bad("superDigest", b -> b.superDigest("super:AAAA")),
                bad("globalOutstandingLimit", b -> b.globalOutstandingLimit(0)),
                bad("maxWatchesPerSession", b -> b.maxWatchesPerSession(0)),
                bad("znode.container.checkIntervalMs", b -> b.containerCheckIntervalMs(0)),
                bad("sessionlessConnectionTimeoutMs", b -> b.sessionlessConnectionTimeoutMs(-1)),
                bad("preAllocSizeBytes", b -> b.preAllocSizeBytes(0)),
                bad("serverId", b -> b.serverId(0)),
                bad("serverId", b -> b.serverId(255)));
    }

    private static Arguments bad(String key, UnaryOperator<ServerConfig.Builder> edit) {
        return Arguments.of(key, edit);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void badValuesAreRejectedNamingTheKey(String key, UnaryOperator<ServerConfig.Builder> edit) {
        ConfigException e = assertThrows(ConfigException.class, () -> edit.apply(ServerConfig.builder()).build());
        assertEquals(key, e.key());
        assertTrue(e.getMessage().startsWith(key), e.getMessage());
    }

    @Test
    void badValueMessageNamesValueAndWhatIsAllowed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ServerConfig.builder().clientPort(70000).build());
        assertEquals("clientPort='70000' is invalid: must be a port from 0 to 65535 (0 picks a free port)",
                e.getMessage());
    }

    @Test
    void toBuilderRoundTripsAndKeepsDerivedValuesDerived() {
        ServerConfig original = ServerConfig.builder().tickTimeMs(100).dataDir(Path.of("a")).build();
        assertEquals(original, original.toBuilder().build());
        ServerConfig moved = original.toBuilder().tickTimeMs(200).dataDir(Path.of("b")).build();
        assertEquals(400, moved.minSessionTimeoutMs());
        assertEquals(4000, moved.maxSessionTimeoutMs());
        assertEquals(Path.of("b"), moved.dataLogDir());
    }

    @Test
    void toBuilderKeepsExplicitValues() {
        ServerConfig original = ServerConfig.builder().tickTimeMs(100).minSessionTimeoutMs(1000)
                .maxSessionTimeoutMs(5000).dataLogDir(Path.of("logs")).build();
        ServerConfig changed = original.toBuilder().tickTimeMs(150).dataDir(Path.of("x")).build();
        assertEquals(1000, changed.minSessionTimeoutMs());
        assertEquals(5000, changed.maxSessionTimeoutMs());
        assertEquals(Path.of("logs"), changed.dataLogDir());
    }

    @Test
    void describeListsEverySettingAndHidesTheSuperDigest() {
        String text = ServerConfig.builder().superDigest(SUPER).build().describe();
        assertTrue(text.contains("clientPort=2181\n"), text);
        assertTrue(text.contains("serverId=1\n"), text);
        assertTrue(text.contains("maxWatchesPerSession=1000000\n"), text);
        assertTrue(text.contains("superDigest=<hidden>\n"), text);
        assertTrue(text.contains("fsync.warningthresholdms=1000\n"), text);
        assertTrue(text.contains("txnLogDirectIo=true\n"), text);
        assertTrue(text.contains("inlineIdleWrites=true\n"), text);
        assertTrue(text.contains("digest.enabled=true\n"), text);
        assertTrue(text.contains("reconfigEnabled=false\n"), text);
        assertTrue(text.contains("admin.enableServer=false\nadmin.serverAddress=127.0.0.1\nadmin.serverPort=8080\n"
                + "admin.commandURL=/commands\nadmin.idleTimeout=30000\nadmin.rateLimiterIntervalInMS=300000\n"
                + "admin.restore.enabled=true\nadmin.snapshot.enabled=true\n"), text);
        assertTrue(text.contains("snapshot.compression.method=\n"), text);
        assertFalse(text.contains(SUPER), text);
        assertTrue(text.contains("localSessionsEnabled=false\nlocalSessionsUpgradingEnabled=false\n"), text);
        assertEquals(41, text.lines().count());
    }
}
