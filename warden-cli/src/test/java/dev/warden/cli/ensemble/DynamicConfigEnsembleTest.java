package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three member JVMs whose zoo.cfg holds no server lines but names a ZooKeeper 3.5+ dynamic config
 * file, with standaloneEnabled=false: they must form one ensemble (a member that ignored the file
 * would run standalone, an ensemble of its own). Runs against the flavours in
 * {@value Ensembles#FLAVOURS_PROPERTY} (default warden; apache checks the layout against ZooKeeper).
 */
class DynamicConfigEnsembleTest {
    private static final long VERSION = 0x100000000L;

    static Stream<Flavour> flavours() {
        return Ensembles.flavours().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flavours")
    void membersListedOnlyInADynamicConfigFileFormOneEnsemble(Flavour flavour) throws Exception {
        LocalCluster cluster = Ensembles.startCluster(Ensembles.specBuilder(flavour,
                        Ensembles.runDir("membersListedOnlyInADynamicConfigFileFormOneEnsemble-" + flavour))
                .tickTimeMs(500).configLine("standaloneEnabled=false").dynamicConfigFile(VERSION).build());
        boolean passed = false;
        try {
            String zooCfg = Files.readString(cluster.member(1).configFile());
            assertFalse(zooCfg.contains("server."), zooCfg);
            assertTrue(Files.exists(cluster.member(1).dir().resolve("zoo.cfg.dynamic.100000000")));

            assertEquals(1, cluster.leaders().size(), "modes " + cluster.modes() + "; " + cluster.describe());
            assertEquals(2, cluster.followers().size(), "modes " + cluster.modes());

            byte[] data = "through member 1".getBytes(StandardCharsets.UTF_8);
            try (ZooKeeper writer = Ensembles.connect(cluster.connectString(1), 5000)) {
                writer.create("/dynamic", data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            for (int id : List.of(2, 3)) {
                try (ZooKeeper reader = Ensembles.connect(cluster.connectString(id), 5000)) {
                    reader.sync("/dynamic", (rc, path, ctx) -> { }, null);
                    assertArrayEquals(data, reader.getData("/dynamic", false, null), "read on member " + id);
                    String config = new String(reader.getConfig(false, null), StandardCharsets.UTF_8);
                    for (int member : cluster.ids()) {
                        MemberPorts ports = cluster.member(member).ports();
                        String line = "server." + member + "=127.0.0.1:" + ports.peerPort() + ":" + ports.electionPort()
                                + ":participant;";
                        assertTrue(config.contains(line), "member " + id + " shows " + line + " in " + config);
                    }
                    assertTrue(config.endsWith("version=" + Long.toHexString(VERSION)), config);
                }
            }
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }
}
