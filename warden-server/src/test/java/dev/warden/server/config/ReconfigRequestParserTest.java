package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ReconfigRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a reconfig request into a configuration, and recording a committed one as ZooKeeper does. */
class ReconfigRequestParserTest {
    private static final String THREE = "server.1=10.0.0.1:2888:3888:participant;2181\n"
            + "server.2=10.0.0.2:2888:3888:participant;2181\nserver.3=10.0.0.3:2888:3888:participant;2181\n";
    private static final EnsembleConfig CURRENT = EnsembleConfig.parse(THREE, 0x100000003L, "test");

    private static EnsembleConfig apply(String joining, String leaving, String members) {
        return ReconfigRequestParser.apply(CURRENT, new ReconfigRequest(joining, leaving, members, -1));
    }

    @Test
    void incrementalChangesAddRemoveAndReplaceLines() {
        EnsembleConfig grown = apply("server.4=10.0.0.4:2888:3888;2181,server.5=10.0.0.5:2888:3888:observer;2181",
                null, null);
        assertEquals(Set.of(1L, 2L, 3L, 4L), grown.voterIds());
        assertEquals(Set.of(5L), grown.observerIds());
        assertEquals(CURRENT.version(), grown.version(), "the version is the change's zxid, set when proposed");
        assertEquals(Set.of(1L, 3L), apply(null, "2", null).voterIds());
        EnsembleConfig demoted = apply("server.2=10.0.0.2:2888:3888:observer;2181", null, null);
        assertEquals(Set.of(2L), demoted.observerIds(), "a known id's line replaces its old one");
        EnsembleConfig moved = apply("server.3=10.0.0.9:2888:3888;2181", "1", null);
        assertEquals("10.0.0.9", moved.members().get(3L).host());
        assertEquals(Set.of(2L, 3L), moved.voterIds());
    }

    @Test
    void aNonIncrementalChangeGivesTheWholeListWithGroupsAndWeights() {
        EnsembleConfig whole = apply(null, null, "server.1=10.0.0.1:2888:3888,server.2=10.0.0.2:2888:3888,"
                + "server.3=10.0.0.3:2888:3888,group.1=1:2,group.2=3,weight.3=2");
        assertTrue(whole.groups().isHierarchical());
        assertEquals(2, whole.groups().weightOf(3));
        assertTrue(whole.text().endsWith("group.1=1:2\ngroup.2=3\nweight.3=2\nversion=100000003"), whole.text());
    }

    @Test
    void badRequestsAreRefusedWithTheReason() {
        assertRefused("must look like host:peerPort:electionPort", "server.6=nonsense", null, null);
        assertRefused("each item must be key=value", "server.6", null, null);
        assertRefused("server 9 is not a member", null, "9", null);
        assertRefused("must be server ids separated by commas", null, "one", null);
        assertRefused("at least one participant", "server.3=10.0.0.3:2888:3888:observer;2181", "1,2", null);
        assertRefused("removes every member", null, "1,2,3", null);
        assertRefused("not both", "server.6=10.0.0.6:1:2", null, THREE.replace('\n', ','));
        assertRefused("an empty configuration", null, null, null);
        assertRefused("10.0.0.1:2888", "server.6=10.0.0.1:2888:4000", null, null);
        assertRefused("only server.N lines", "group.1=1", null, null);
    }

    private static void assertRefused(String reason, String joining, String leaving, String members) {
        ConfigException e = assertThrows(ConfigException.class, () -> apply(joining, leaving, members));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @TempDir
    Path dir;

    @Test
    void aCommittedConfigurationIsRecordedAsZooKeeperRecordsIt() throws Exception {
        Path zooCfg = dir.resolve("zoo.cfg");
        Files.writeString(zooCfg, "tickTime=2000\nclientPort=2181\nserver.1=10.0.0.1:2888:3888\n"
                + "server.2=10.0.0.2:2888:3888\nversion=0\n# kept\ninitLimit=10\n");
        EnsembleConfig next = apply("server.4=10.0.0.4:2888:3888;2181", null, null).withVersion(0x200000001L);

        Path dynamic = DynamicConfigWriter.write(zooCfg, 1, next);

        assertEquals(dir.resolve("zoo.cfg.dynamic.200000001"), dynamic);
        assertEquals(next.memberText(), Files.readString(dynamic, StandardCharsets.UTF_8));
        assertEquals("tickTime=2000\n# kept\ninitLimit=10\ndynamicConfigFile=" + dynamic.toAbsolutePath() + "\n",
                Files.readString(zooCfg, StandardCharsets.UTF_8), "member lines and clientPort move to the dynamic file");
        Files.writeString(dir.resolve("myid"), "1\n");
        Files.writeString(zooCfg, "dataDir=" + dir + "\n" + Files.readString(zooCfg));
        ServerConfig restarted = ConfigLoader.load(zooCfg, message -> { });
        assertEquals(next.members(), restarted.members());
        assertEquals(0x200000001L, restarted.configVersion());
        assertEquals(2181, restarted.clientPort());
    }
}
