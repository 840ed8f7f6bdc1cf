package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QuorumConfigTest {
    @TempDir
    Path dataDir;
    private final List<String> warnings = new ArrayList<>();

    private ServerConfig parse(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("dataDir", dataDir.toString());
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return ConfigLoader.fromProperties(p, warnings::add);
    }

    private void myid(String text) throws IOException {
        Files.writeString(dataDir.resolve("myid"), text);
    }

    private static final String[] THREE = {
        "server.1", "10.0.0.1:2888:3888", "server.2", "10.0.0.2:2888:3888;2181", "server.3", "10.0.0.3:2888:3888"};

    private ServerConfig parseThree(String... more) {
        String[] all = new String[THREE.length + more.length];
        System.arraycopy(THREE, 0, all, 0, THREE.length);
        System.arraycopy(more, 0, all, THREE.length, more.length);
        return parse(all);
    }

    @Test
    void threeServerLinesAndMyidMakeAnEnsembleMember() throws IOException {
        myid("2\n");
        ServerConfig c = parseThree("initLimit", "7", "syncLimit", "3");
        assertTrue(c.isEnsemble());
        assertEquals(2, c.serverId());
        assertEquals(Set.of(1L, 2L, 3L), c.members().keySet());
        assertEquals(new QuorumMember(1, "10.0.0.1", 2888, 3888, false, null, 0), c.members().get(1L));
        assertEquals(2181, c.self().clientPort());
        assertEquals(7, c.initLimitTicks());
        assertEquals(3, c.syncLimitTicks());
        assertEquals(Set.of(1L, 2L, 3L), c.voterIds());
        assertEquals(List.of(), warnings);
    }

    @Test
    void limitsDefaultToTenAndFiveTicks() throws IOException {
        myid("1");
        ServerConfig c = parseThree();
        assertEquals(10, c.initLimitTicks());
        assertEquals(5, c.syncLimitTicks());
        assertFalse(ServerConfig.builder().build().isEnsemble());
    }

    @Test
    void theClientPartOfTheOwnLineSetsClientPortAndAddress() throws IOException {
        myid("1");
        ServerConfig c = parse("server.1", "a:1:2;0.0.0.0:2190", "server.2", "b:1:2", "server.3", "c:1:2");
        assertEquals(2190, c.clientPort());
        assertEquals("0.0.0.0", c.clientPortAddress());
    }

    @Test
    void clientPortDisagreeingWithTheServerLineNamesClientPort() throws IOException {
        myid("2");
        ConfigException e = assertThrows(ConfigException.class, () -> parseThree("clientPort", "2182"));
        assertEquals("clientPort", e.key());
        assertEquals(2181, parseThree("clientPort", "2181").clientPort());
    }

    @Test
    void observersAreParsedAndPeerTypeMustAgree() throws IOException {
        myid("4");
        String[] lines = {"server.1", "a:1:2", "server.2", "b:1:2:participant", "server.3", "c:1:2",
            "server.4", "d:1:2:observer"};
        ServerConfig c = parse(concat(lines, "peerType", "observer"));
        assertTrue(c.self().observer());
        assertEquals(Set.of(4L), c.observerIds());
        assertEquals(Set.of(1L, 2L, 3L), c.voterIds());
        assertEquals("peerType", assertThrows(ConfigException.class,
                () -> parse(concat(lines, "peerType", "participant"))).key());
        assertEquals("peerType", assertThrows(ConfigException.class,
                () -> parse(concat(lines, "peerType", "leader"))).key());
    }

    @Test
    void observerOnlyEnsemblesAreRejected() throws IOException {
        myid("1");
        ConfigException e = assertThrows(ConfigException.class,
                () -> parse("server.1", "a:1:2:observer", "server.2", "b:1:2:observer"));
        assertTrue(e.getMessage().contains("participant"), e.getMessage());
    }

    @Test
    void missingUnparsableOrUnlistedMyidIsAClearError() throws IOException {
        ConfigException missing = assertThrows(ConfigException.class, this::parseThree);
        assertEquals("myid", missing.key());
        assertTrue(missing.getMessage().contains(dataDir.resolve("myid").toString()), missing.getMessage());
        myid("two");
        ConfigException garbage = assertThrows(ConfigException.class, this::parseThree);
        assertEquals("myid", garbage.key());
        assertTrue(garbage.getMessage().contains("'two'"), garbage.getMessage());
        myid("9");
        ConfigException unlisted = assertThrows(ConfigException.class, this::parseThree);
        assertEquals("myid", unlisted.key());
        assertTrue(unlisted.getMessage().contains("[1, 2, 3]"), unlisted.getMessage());
    }

    @Test
    void duplicateIdsAndPortClashesNameTheKey() throws IOException {
        myid("1");
        ConfigException duplicate = assertThrows(ConfigException.class,
                () -> parse("server.1", "a:1:2", "server.01", "b:1:2", "server.3", "c:1:2"));
        assertTrue(duplicate.getMessage().contains("server.01") && duplicate.getMessage().contains("server.1"));
        ConfigException clash = assertThrows(ConfigException.class,
                () -> parse("server.1", "a:1:2", "server.2", "a:2:3", "server.3", "c:1:2"));
        assertEquals("server.2", clash.key());
        ConfigException samePorts = assertThrows(ConfigException.class,
                () -> parse("server.1", "a:5:5", "server.2", "b:1:2", "server.3", "c:1:2"));
        assertEquals("server.1", samePorts.key());
        ConfigException clientOnPeerPort = assertThrows(ConfigException.class,
                () -> parse("server.1", "a:1:2", "server.2", "b:1:2", "server.3", "c:1:2", "clientPort", "2"));
        assertEquals("clientPort", clientOnPeerPort.key());
    }

    @Test
    void malformedServerLinesNameTheKey() throws IOException {
        myid("1");
        for (String bad : List.of("a:1", "a:x:2", "a:1:2:leader", "a:1:2:observer:9", "a:1:70000", "a:1:2;b:c",
                "[::1:1:2", ":1:2", "a:1:2;0")) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> parse("server.1", bad, "server.2", "b:1:2", "server.3", "c:1:2"), bad);
            assertEquals("server.1", e.key(), bad);
        }
    }

    @Test
    void ipv6HostsInBrackets() {
        QuorumMember m = QuorumMember.parse(5, "[::1]:2888:3888:observer;[::1]:2181");
        assertEquals(new QuorumMember(5, "::1", 2888, 3888, true, "::1", 2181), m);
        assertEquals(m, QuorumMember.parse(5, m.toSpec()));
    }

    @Test
    void twoVotersAreAllowedWithAWarning() throws IOException {
        myid("1");
        ServerConfig c = parse("server.1", "a:1:2", "server.2", "b:1:2");
        assertEquals(2, c.voterIds().size());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("2 voting members"), warnings.get(0));
    }

    @Test
    void oneServerLineRunsStandaloneUnlessStandaloneIsDisabled() throws IOException {
        ServerConfig standalone = parse("server.1", "a:1:2;2200");
        assertFalse(standalone.isEnsemble());
        assertEquals(2200, standalone.clientPort());
        assertEquals(1, warnings.size());
        myid("1");
        ServerConfig single = parse("server.1", "a:1:2", "standaloneEnabled", "false");
        assertTrue(single.isEnsemble());
        assertFalse(single.standaloneEnabled());
    }

    @Test
    void electionAlgorithmThreeIsAcceptedSilently() throws IOException {
        myid("1");
        parseThree("electionAlg", "3");
        assertEquals(List.of(), warnings);
    }

    @Test
    void leaderServesTakesZooKeepersYesAndNoOnly() throws IOException {
        myid("1");
        assertFalse(parseThree("leaderServes", "no").leaderServes());
        assertTrue(parseThree("zookeeper.leaderServes", "yes").leaderServes());
        assertEquals(List.of(), warnings);
        ConfigException e = assertThrows(ConfigException.class, () -> parseThree("leaderServes", "false"));
        assertTrue(e.getMessage().contains("must be yes or no"), e.getMessage());
    }

    @Test
    void groupAndWeightLinesMakeAHierarchicalQuorum() throws IOException {
        myid("1");
        ServerConfig c = parseThree("group.1", "1:2", "group.2", "3", "weight.1", "2", "weight.3", "0");
        assertTrue(c.quorumGroups().isHierarchical());
        assertEquals(java.util.Set.of(1L, 2L), c.quorumGroups().groups().get(1L));
        assertEquals(2, c.quorumGroups().weightOf(1));
        assertEquals(1, c.quorumGroups().weightOf(2), "1 unless given");
        assertEquals(0, c.quorumGroups().weightOf(3));
        assertTrue(c.ensembleConfig().text().contains("group.1=1:2\ngroup.2=3\nweight.1=2\nweight.3=0\nversion=0"),
                c.ensembleConfig().text());
        // group 2 weighs 0 and is left out: 2 of group 1's 3 is a quorum, member 3 adds nothing
        assertTrue(c.ensembleConfig().verifier().containsQuorum(java.util.Set.of(1L)));
        assertFalse(c.ensembleConfig().verifier().containsQuorum(java.util.Set.of(2L, 3L)));
        assertEquals(c, ConfigLoader.fromProperties(withDataDir(c.toProperties()), warnings::add),
                "written and read back");
        assertFalse(parseThree().quorumGroups().isHierarchical(), "a plain majority without group lines");
    }

    private Properties withDataDir(Properties p) {
        p.setProperty("dataDir", dataDir.toString());
        return p;
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "group.1|1:2:3:4|server 4 has no server.4 line",
            "group.1|1:x|each member of a group",
            "group.x|1:2:3|a hierarchical quorum is written group.N=a:b:c",
            "weight.1|heavy|a weight (a whole number, 0 or more)",
            "weight.1|-1|a weight (a whole number, 0 or more)",
            "weight.7|1|server 7 has no server.7 line"})
    void badGroupAndWeightLinesAreRefusedNamingTheKey(String key, String value, String reason) throws IOException {
        myid("1");
        ConfigException e = assertThrows(ConfigException.class, () -> parseThree("group.9", "1:2:3", key, value));
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void groupsMustCoverEveryParticipantOnceAndGiveSomeWeight() throws IOException {
        myid("1");
        ConfigException twice = assertThrows(ConfigException.class,
                () -> parseThree("group.1", "1:2", "group.2", "2:3"));
        assertTrue(twice.getMessage().contains("server 2 is already in group.1"), twice.getMessage());
        ConfigException missing = assertThrows(ConfigException.class, () -> parseThree("group.1", "1:2"));
        assertTrue(missing.getMessage().contains("server.3 is a participant in no group"), missing.getMessage());
        ConfigException weightless = assertThrows(ConfigException.class,
                () -> parseThree("group.1", "1:2:3", "weight.1", "0", "weight.2", "0", "weight.3", "0"));
        assertTrue(weightless.getMessage().contains("no quorum could ever form"), weightless.getMessage());
        ConfigException alone = assertThrows(ConfigException.class, () -> parseThree("weight.1", "2"));
        assertEquals("weight.1", alone.key());
        assertTrue(alone.getMessage().contains("no group lines"), alone.getMessage());
    }

    @Test
    void reconfigEnabledIsOffByDefaultAsInZooKeeper() throws IOException {
        myid("1");
        assertFalse(parseThree().reconfigEnabled());
        assertTrue(parseThree("reconfigEnabled", "true").reconfigEnabled());
        assertTrue(parse("reconfigEnabled", "true").reconfigEnabled(), "read by a standalone server too");
    }

    @Test
    void aVersionBesideTheServerLinesIsReadAsHexadecimal() throws IOException {
        myid("1");
        assertEquals(0L, parseThree().configVersion());
        assertEquals(0x100000000L, parseThree("version", "100000000").configVersion());
        for (String bad : List.of("-1", "0x10", "g", "", "1ffffffffffffffff")) {
            ConfigException e = assertThrows(ConfigException.class, () -> parseThree("version", bad), bad);
            assertEquals("version", e.key());
        }
    }

    @Test
    void standaloneDisabledWithoutMemberLinesIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("standaloneEnabled", "false"));
        assertEquals("standaloneEnabled", e.key());
        assertTrue(e.getMessage().contains("has no server.N lines"), e.getMessage());
        assertFalse(parse("standaloneEnabled", "true").isEnsemble());
    }

    @Test
    void aServerKeyWithoutANumericIdIsRefused() throws IOException {
        myid("1");
        ConfigException e = assertThrows(ConfigException.class, () -> parseThree("server.principal", "zk/host"));
        assertEquals("server.principal", e.key());
    }

    @Test
    void anEnsembleConfigReadsBackFromItsProperties() throws IOException {
        myid("3");
        ServerConfig c = parse("server.1", "a:1:2", "server.2", "b:1:2", "server.3", "c:1:2;2181",
                "server.4", "d:1:2:observer", "initLimit", "20", "syncLimit", "2", "standaloneEnabled", "false");
        assertEquals(c, ConfigLoader.fromProperties(c.toProperties(), warnings::add));
        assertEquals(List.of(), warnings);
        String text = c.describe();
        assertTrue(text.contains("server.4=d:1:2:observer\n"), text);
        assertTrue(text.contains("server.3=c:1:2:participant;2181\n"), text);
        assertTrue(text.contains("initLimit=20\n") && text.contains("peerType=participant\n"), text);
        assertTrue(text.endsWith("version=0\n"), text);
        assertEquals(c, c.toBuilder().build());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
