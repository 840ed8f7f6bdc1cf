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
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** zoo.cfg naming a dynamicConfigFile, read as ZooKeeper 3.5+ reads it. */
class DynamicConfigFileTest {
    /** Three voters and an observer. */
    private static final String MEMBERS = String.join("\n",
            "server.1=10.0.0.1:2888:3888;2181",
            "server.2=10.0.0.2:2888:3888;0.0.0.0:2182",
            "server.3=10.0.0.3:2888:3888",
            "server.4=10.0.0.4:2888:3888:observer;2184", "");

    @TempDir
    Path dir;
    private Path dataDir;
    private final List<String> warnings = new ArrayList<>();

    @BeforeEach
    void myid() throws IOException {
        dataDir = Files.createDirectories(dir.resolve("data"));
        Files.writeString(dataDir.resolve("myid"), "2\n");
    }

    /** zoo.cfg in {@code dir}, with dataDir and the given lines. */
    private Path zooCfg(String... lines) throws IOException {
        return Files.writeString(dir.resolve("zoo.cfg"), "dataDir=" + dataDir + "\n" + String.join("\n", lines) + "\n");
    }

    private Path dynamicFile(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private ServerConfig load(Path zooCfg) {
        return ConfigLoader.load(zooCfg, warnings::add);
    }

    @Test
    void theDynamicFilesLinesMakeTheEnsembleAndItsNameTheVersion() throws IOException {
        Path dynamic = dynamicFile("zoo.cfg.dynamic.100000000", MEMBERS);
        ServerConfig c = load(zooCfg("standaloneEnabled=false", "dynamicConfigFile=" + dynamic));
        assertTrue(c.isEnsemble());
        assertEquals(2, c.serverId());
        assertEquals(Set.of(1L, 2L, 3L, 4L), c.members().keySet());
        assertEquals(new QuorumMember(4, "10.0.0.4", 2888, 3888, true, null, 2184), c.members().get(4L));
        assertEquals(Set.of(1L, 2L, 3L), c.voterIds());
        assertEquals(0x100000000L, c.configVersion());
        // the client part of the member's own line stands in for clientPort and clientPortAddress
        assertEquals(2182, c.clientPort());
        assertEquals("0.0.0.0", c.clientPortAddress());
        assertFalse(c.standaloneEnabled());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aConfigFromADynamicFileReadsBackFromItsProperties() throws IOException {
        Path dynamic = dynamicFile("zoo.cfg.dynamic.1a2b", MEMBERS);
        ServerConfig c = load(zooCfg("dynamicConfigFile=" + dynamic, "initLimit=7"));
        assertEquals(0x1a2bL, c.configVersion());
        assertTrue(c.describe().endsWith("server.4=10.0.0.4:2888:3888:observer;2184\nversion=1a2b\n"), c.describe());
        assertEquals(dir.resolve("zoo.cfg"), c.configFile(), "where a committed configuration is recorded");
        // the file it came from is not a setting: properties carry none
        assertEquals(c.toBuilder().configFile(null).build(), ConfigLoader.fromProperties(c.toProperties(),
                warnings::add));
        assertEquals(List.of(), warnings);
    }

    @Test
    void aRelativePathResolvesAgainstTheWorkingDirectoryNotTheConfigFilesDirectory() throws IOException {
        Path dynamic = dynamicFile("members.dynamic", MEMBERS);
        Path relative = Path.of("").toAbsolutePath().relativize(dynamic);
        assertEquals(4, load(zooCfg("dynamicConfigFile=" + relative)).members().size());
        // beside zoo.cfg but not in the working directory: not found, and the message names the path tried
        ConfigException e = assertThrows(ConfigException.class, () -> load(zooCfg("dynamicConfigFile=members.dynamic")));
        assertEquals("dynamicConfigFile", e.key());
        assertTrue(e.getMessage().contains("members.dynamic does not exist"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"server.1=10.0.0.1:2888:3888", "server.9=10.0.0.9:2888:3888"})
    void serverLinesInZooCfgBesideADynamicFileAreRefused(String line) throws IOException {
        Path dynamic = dynamicFile("zoo.cfg.dynamic", MEMBERS);
        ConfigException e = assertThrows(ConfigException.class, () -> load(zooCfg("dynamicConfigFile=" + dynamic, line)));
        String key = line.substring(0, line.indexOf('='));
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains("member lines must be in the dynamic config file"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"group.1=1:2:3", "weight.1=2"})
    void groupAndWeightLinesBelongInTheDynamicFileNotInZooCfg(String line) throws IOException {
        String key = line.substring(0, line.indexOf('='));
        Path clean = dynamicFile("clean.dynamic", MEMBERS);
        ConfigException inZooCfg = assertThrows(ConfigException.class,
                () -> load(zooCfg("dynamicConfigFile=" + clean, line)));
        assertEquals(key, inZooCfg.key());
        assertTrue(inZooCfg.getMessage().contains("must be in the dynamic config file"), inZooCfg.getMessage());
    }

    @Test
    void aDynamicFileMayHoldAHierarchicalQuorum() throws IOException {
        Path weighted = dynamicFile("weighted.dynamic.5", MEMBERS + "group.1=1:2:3\nweight.1=2\n");
        ServerConfig config = load(zooCfg("dynamicConfigFile=" + weighted));
        assertTrue(config.quorumGroups().isHierarchical());
        assertEquals(2, config.quorumGroups().weightOf(1));
        assertEquals(5, config.configVersion());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "version=100000000|version|the version of a dynamic config file is the hexadecimal at the end of its name",
            "tickTime=2000|tickTime|a dynamic config file holds only server.N, group.N and weight.N lines",
            "standaloneEnabled=false|standaloneEnabled|a dynamic config file holds only server.N, group.N and weight.N"
                    + " lines"})
    void aDynamicFileHoldsOnlyMemberLines(String line, String key, String reason) throws IOException {
        Path dynamic = dynamicFile("zoo.cfg.dynamic.1", MEMBERS + line + "\n");
        ConfigException e = assertThrows(ConfigException.class, () -> load(zooCfg("dynamicConfigFile=" + dynamic)));
        assertEquals(key, e.key());
        assertTrue(e.getMessage().contains(dynamic.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({
            "zoo.cfg.dynamic.100000000, 100000000",
            "zoo.cfg.dynamic.0, 0",
            "members.1A2b, 1a2b",
            "members.7fffffffffffffff, 7fffffffffffffff",
            "zoo.cfg.dynamic, 0",
            "dynamic, 0",
            "abc, 0",
            "members., 0",
            "members.-5, 0",
            "members.8000000000000000, 0",
            "members.1ffffffffffffffff, 0"})
    void theVersionIsTheHexadecimalAfterTheLastDotOfTheName(String name, String hexVersion) {
        assertEquals(Long.parseUnsignedLong(hexVersion, 16), DynamicConfigFile.versionFromFileName(dir.resolve(name)));
    }

    @Test
    void aReconfigurationInProgressStopsTheServerNamingTheFile() throws IOException {
        Path dynamic = dynamicFile("zoo.cfg.dynamic.100000000", MEMBERS);
        Path cfg = zooCfg("dynamicConfigFile=" + dynamic);
        Path next = Files.writeString(dir.resolve("zoo.cfg.dynamic.next"), MEMBERS);
        ConfigException e = assertThrows(ConfigException.class, () -> load(cfg));
        assertEquals("dynamicConfigFile", e.key());
        assertTrue(e.getMessage().startsWith(next + " exists: ZooKeeper writes it while a reconfiguration is in"
                + " progress, and Warden cannot complete ZooKeeper's"), e.getMessage());
        // ZooKeeper only looks for it with a dynamic config file, and so does Warden
        Files.writeString(dataDir.resolve("myid"), "1\n");
        Path staticCfg = zooCfg("server.1=a:1:2", "server.2=b:1:2", "server.3=c:1:2");
        assertEquals(3, load(staticCfg).members().size());
    }

    @Test
    void aMissingDynamicFileNamesThePath() throws IOException {
        Path absent = dir.resolve("absent.dynamic");
        ConfigException e = assertThrows(ConfigException.class, () -> load(zooCfg("dynamicConfigFile=" + absent)));
        assertEquals("dynamicConfigFile", e.key());
        assertTrue(e.getMessage().contains(absent + " does not exist"), e.getMessage());
        assertEquals("dynamicConfigFile", assertThrows(ConfigException.class,
                () -> load(zooCfg("dynamicConfigFile= "))).key());
    }

    @Test
    void standaloneEnabledDecidesAboutOneMemberLineAsForZooCfg() throws IOException {
        Path single = dynamicFile("single.dynamic", "server.1=10.0.0.1:2888:3888;2190\n");
        ServerConfig standalone = load(zooCfg("dynamicConfigFile=" + single));
        assertFalse(standalone.isEnsemble());
        assertEquals(2190, standalone.clientPort());
        Files.writeString(dataDir.resolve("myid"), "1\n");
        ServerConfig oneMember = load(zooCfg("dynamicConfigFile=" + single, "standaloneEnabled=false"));
        assertTrue(oneMember.isEnsemble());
        Path empty = dynamicFile("empty.dynamic", "# no members\n");
        ConfigException e = assertThrows(ConfigException.class,
                () -> load(zooCfg("dynamicConfigFile=" + empty, "standaloneEnabled=false")));
        assertEquals("standaloneEnabled", e.key());
        assertTrue(e.getMessage().contains(empty.toString()), e.getMessage());
    }

    @Test
    void theSameValidationAppliesToTheDynamicFilesLines() throws IOException {
        Path duplicate = dynamicFile("dup.dynamic", MEMBERS + "server.02=10.0.0.9:2888:3888\n");
        ConfigException dup = assertThrows(ConfigException.class, () -> load(zooCfg("dynamicConfigFile=" + duplicate)));
        assertTrue(dup.getMessage().contains("server.02") && dup.getMessage().contains("server.2"), dup.getMessage());
        Path malformed = dynamicFile("bad.dynamic", "server.1=a:1\nserver.2=b:1:2\nserver.3=c:1:2\n");
        assertEquals("server.1", assertThrows(ConfigException.class,
                () -> load(zooCfg("dynamicConfigFile=" + malformed))).key());
        Files.writeString(dataDir.resolve("myid"), "7\n");
        Path three = dynamicFile("three.dynamic", MEMBERS);
        assertEquals("myid", assertThrows(ConfigException.class, () -> load(zooCfg("dynamicConfigFile=" + three))).key());
        ConfigException clientPort = assertThrows(ConfigException.class, () -> {
            Files.writeString(dataDir.resolve("myid"), "1\n");
            load(zooCfg("dynamicConfigFile=" + three, "clientPort=2999"));
        });
        assertEquals("clientPort", clientPort.key());
    }

    @Test
    void aVersionLineInZooCfgBesideADynamicFileIsIgnoredWithAWarning() throws IOException {
        Path dynamic = dynamicFile("zoo.cfg.dynamic.10", MEMBERS);
        ServerConfig c = load(zooCfg("dynamicConfigFile=" + dynamic, "version=99"));
        assertEquals(0x10L, c.configVersion());
        assertEquals(List.of("ignoring 'version': with dynamicConfigFile the version is taken from the dynamic file's"
                + " name (0x10)"), warnings);
    }
}
