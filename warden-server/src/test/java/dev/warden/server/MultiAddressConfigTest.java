package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ReconfigRequest;
import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.MultiAddressSettings;
import dev.warden.server.config.QuorumMember.PeerAddress;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ReconfigRequestParser;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Server lines with several addresses (multiAddress.enabled), as ZooKeeper 3.6+ reads and writes them. */
class MultiAddressConfigTest {
    @TempDir
    Path dataDir;
    private final List<String> warnings = new ArrayList<>();

    private static final String TWO_NETWORKS = "10.0.1.1:2888:3888|10.0.2.1:2889:3889";

    private ServerConfig parse(String... keyValues) throws IOException {
        Files.writeString(dataDir.resolve("myid"), "1\n");
        Properties p = new Properties();
        p.setProperty("dataDir", dataDir.toString());
        p.setProperty("server.2", "10.0.1.2:2888:3888|10.0.2.2:2888:3888");
        p.setProperty("server.3", "10.0.1.3:2888:3888");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return ConfigLoader.fromProperties(p, warnings::add);
    }

    @Test
    void aLineWithSeveralAddressesIsReadInItsOrderAndWrittenBackAsZooKeeperWritesIt() {
        QuorumMember m = QuorumMember.parse(1, TWO_NETWORKS + ":observer;2181");
        assertEquals(List.of(new PeerAddress("10.0.1.1", 2888, 3888), new PeerAddress("10.0.2.1", 2889, 3889)),
                m.addresses());
        assertEquals("10.0.1.1", m.host());
        assertTrue(m.observer());
        assertEquals(2181, m.clientPort());
        assertEquals(TWO_NETWORKS + ":observer;2181", m.toSpec());
        assertEquals(m, QuorumMember.parse(1, m.toSpec()));
        // a role may follow each address, as long as they agree
        assertEquals(m, QuorumMember.parse(1, "10.0.1.1:2888:3888:observer|10.0.2.1:2889:3889:observer;2181"));
        ConfigException mixed = assertThrows(ConfigException.class,
                () -> QuorumMember.parse(1, "a:1:2:participant|b:1:2:observer"));
        assertEquals("server.1", mixed.key());
        assertTrue(mixed.getMessage().contains("same role"), mixed.getMessage());
    }

    @Test
    void withoutMultiAddressEnabledALineWithSeveralAddressesIsRefusedNamingTheKeyThatAllowsIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("server.1", TWO_NETWORKS));
        assertEquals("server.1", e.key());
        assertTrue(e.getMessage().contains("multiAddress.enabled=true"), e.getMessage());
        ConfigException off = assertThrows(ConfigException.class,
                () -> parse("server.1", TWO_NETWORKS, "multiAddress.enabled", "false"));
        assertEquals("server.1", off.key());
    }

    @Test
    void withMultiAddressEnabledEveryAddressIsKeptAndTheReachabilityKeysAreRead() throws IOException {
        ServerConfig c = parse("server.1", TWO_NETWORKS, "multiAddress.enabled", "true",
                "multiAddress.reachabilityCheckEnabled", "false", "multiAddress.reachabilityCheckTimeoutMs", "250");
        assertEquals(2, c.self().addresses().size());
        assertEquals(new MultiAddressSettings(true, false, 250), c.multiAddress());
        assertEquals(List.of(), warnings.stream().filter(w -> w.contains("multiAddress")).toList());
        // the settings read back to an equal configuration, lines and keys included
        Properties written = c.toProperties();
        written.setProperty("dataDir", dataDir.toString());
        assertEquals(c, ConfigLoader.fromProperties(written, warnings::add));
        assertEquals(MultiAddressSettings.DEFAULTS,
                parse("server.1", TWO_NETWORKS, "multiAddress.enabled", "true").multiAddress().withEnabled(false));
    }

    @Test
    void anAddressUsedTwiceIsRefusedWhicheverLineItIsIn() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("server.1",
                "10.0.1.1:2888:3888|10.0.2.2:2888:3889", "multiAddress.enabled", "true"));
        assertTrue(e.getMessage().contains("10.0.2.2:2888"), e.getMessage());
        ConfigException sameTwice = assertThrows(ConfigException.class, () -> parse("server.1",
                "10.0.1.1:2888:3888|10.0.1.1:2888:3888", "multiAddress.enabled", "true"));
        assertEquals("server.1", sameTwice.key());
    }

    @Test
    void theDynamicFileAndConfigNodeTextHoldEveryAddress() {
        EnsembleConfig config = EnsembleConfig.parse("server.1=" + TWO_NETWORKS + ":participant;2181\n"
                + "server.2=10.0.1.2:2888:3888:participant\n", 0x100000000L, "test");
        assertTrue(config.text().contains("server.1=" + TWO_NETWORKS + ":participant;2181\n"), config.text());
        assertEquals(config.members(), EnsembleConfig.parse(config.text(), config.version(), "again").members());
    }

    @Test
    void aReconfigAddsAMemberWithSeveralAddressesOnlyWhenMultiAddressIsEnabled() {
        EnsembleConfig current = EnsembleConfig.parse("server.1=10.0.1.1:2888:3888\nserver.2=10.0.1.2:2888:3888\n"
                + "server.3=10.0.1.3:2888:3888\n", 0x100000000L, "current");
        ReconfigRequest join = new ReconfigRequest("server.4=10.0.1.4:2888:3888|10.0.2.4:2888:3888;2181", null,
                null, -1);
        EnsembleConfig next = ReconfigRequestParser.apply(current, join, true);
        assertEquals(2, next.members().get(4L).addresses().size());
        ConfigException refused = assertThrows(ConfigException.class,
                () -> ReconfigRequestParser.apply(current, join, false));
        assertEquals("server.4", refused.key());
        assertFalse(next.members().get(1L).hasSeveralAddresses());
    }
}
