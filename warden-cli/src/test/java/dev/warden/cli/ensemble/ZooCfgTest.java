package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import dev.warden.cli.cluster.MemberPorts;
import dev.warden.cli.cluster.PeerView;
import dev.warden.cli.cluster.ZooCfg;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooCfgTest {
    private static final Map<Integer, MemberPorts> PORTS = Map.of(
            1, new MemberPorts(2181, 2888, 3888),
            2, new MemberPorts(2182, 2889, 3889),
            3, new MemberPorts(2183, 2890, 3890));

    @TempDir
    Path tmp;

    @Test
    void participantConfigListsEveryMemberWithItsClientPort() {
        ClusterSpec spec = ClusterSpec.builder(Flavour.WARDEN, tmp, "cp").tickTimeMs(200).build();
        String cfg = ZooCfg.render(spec, 2, tmp.resolve("d2"), PORTS);
        List<String> lines = cfg.lines().toList();
        assertEquals(List.of(
                "tickTime=200",
                "initLimit=10",
                "syncLimit=5",
                "dataDir=" + tmp.resolve("d2").toAbsolutePath(),
                "clientPort=2182",
                "maxClientCnxns=0",
                "4lw.commands.whitelist=srvr,mntr,ruok",
                "server.1=127.0.0.1:2888:3888;2181",
                "server.2=127.0.0.1:2889:3889;2182",
                "server.3=127.0.0.1:2890:3890;2183"), lines);
    }

    @Test
    void aPeerViewMovesTheOtherMembersPortsButNeverTheMembersOwn() {
        ClusterSpec spec = ClusterSpec.builder(Flavour.WARDEN, tmp, "cp").build();
        PeerView relayed = (viewer, member, ports) ->
                new MemberPorts(ports.clientPort(), 10_000 + 10 * viewer + member, 11_000 + 10 * viewer + member);
        List<String> lines = ZooCfg.render(spec, 2, tmp.resolve("d2"), PORTS, null, relayed).lines()
                .filter(line -> line.startsWith("server.")).toList();
        assertEquals(List.of(
                "server.1=127.0.0.1:10021:11021;2181",
                "server.2=127.0.0.1:2889:3889;2182",
                "server.3=127.0.0.1:10023:11023;2183"), lines);
    }

    @Test
    void observerIsMarkedInEveryConfigAndDeclaresItselfAnObserver() {
        ClusterSpec spec = ClusterSpec.builder(Flavour.APACHE, tmp, "cp").participants(2).observers(1)
                .configLine("snapCount=1000").build();
        String observerCfg = ZooCfg.render(spec, 3, tmp, PORTS);
        String participantCfg = ZooCfg.render(spec, 1, tmp, PORTS);
        assertTrue(observerCfg.contains("\npeerType=observer\n"), observerCfg);
        assertTrue(!participantCfg.contains("peerType"), participantCfg);
        assertTrue(participantCfg.contains("server.3=127.0.0.1:2890:3890:observer;2183\n"), participantCfg);
        // the flavour's own lines, then the caller's
        assertTrue(participantCfg.endsWith("standaloneEnabled=false\nreconfigEnabled=false\nsnapCount=1000\n"),
                participantCfg);
    }

    @Test
    void aDynamicConfigSpecPutsTheMemberLinesInAVersionedFileThatZooCfgNames() throws Exception {
        ClusterSpec spec = ClusterSpec.builder(Flavour.WARDEN, tmp, "cp").dynamicConfigFile(0x100000000L).build();
        Path config = ZooCfg.write(spec, 2, tmp, tmp.resolve("d2"), PORTS);
        Path dynamic = tmp.resolve("zoo.cfg.dynamic.100000000");
        assertEquals(List.of(
                "server.1=127.0.0.1:2888:3888;2181",
                "server.2=127.0.0.1:2889:3889;2182",
                "server.3=127.0.0.1:2890:3890;2183"), Files.readAllLines(dynamic));
        List<String> lines = Files.readAllLines(config);
        assertTrue(lines.contains("dynamicConfigFile=" + dynamic.toAbsolutePath()), lines.toString());
        assertTrue(lines.stream().noneMatch(line -> line.startsWith("server.")), lines.toString());
        assertThrows(IllegalArgumentException.class,
                () -> ClusterSpec.builder(Flavour.WARDEN, tmp, "cp").dynamicConfigFile(-1).build());
    }

    @Test
    void createWritesConfigAndMyidPerMemberWithDistinctPorts() throws Exception {
        ClusterSpec spec = ClusterSpec.builder(Flavour.APACHE, tmp, "cp").build();
        try (LocalCluster cluster = LocalCluster.create(spec)) {
            assertEquals(List.of(1, 2, 3), cluster.ids());
            long distinctPorts = cluster.ids().stream()
                    .flatMap(id -> {
                        MemberPorts p = cluster.member(id).ports();
                        return List.of(p.clientPort(), p.peerPort(), p.electionPort()).stream();
                    }).distinct().count();
            assertEquals(9, distinctPorts);
            for (int id : cluster.ids()) {
                Path dir = tmp.resolve("member-" + id);
                assertEquals(id + "\n", Files.readString(dir.resolve("data/myid")));
                String cfg = Files.readString(dir.resolve("zoo.cfg"));
                assertTrue(cfg.contains("clientPort=" + cluster.member(id).ports().clientPort() + "\n"), cfg);
            }
            assertEquals(cluster.connectString(1) + "," + cluster.connectString(2) + "," + cluster.connectString(3),
                    cluster.connectString());
            // nothing started: every member is unreachable and there is no leader
            assertEquals(List.of(), cluster.leaders());
            assertEquals(MemberMode.UNREACHABLE, cluster.mode(1));
        }
    }

    @Test
    void badSpecsAreRejectedWithTheReason() {
        assertThrows(IllegalArgumentException.class,
                () -> ClusterSpec.builder(Flavour.WARDEN, tmp, "cp").participants(0).build());
        assertThrows(IllegalArgumentException.class, () -> ClusterSpec.builder(Flavour.WARDEN, tmp, " ").build());
        assertThrows(IllegalArgumentException.class,
                () -> ClusterSpec.builder(Flavour.WARDEN, tmp, "cp").configLine("no equals sign"));
        assertThrows(IllegalArgumentException.class, () -> new MemberPorts(1, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new MemberPorts(0, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> Flavour.parse("etcd"));
        assertEquals(Flavour.APACHE, Flavour.parse(" Apache"));
    }

    @Test
    void srvrModeLineIsParsed() {
        assertEquals(MemberMode.LEADER, MemberMode.fromSrvr("Zookeeper version: x\nLatency min/avg/max: 0/0/0\n"
                + "Mode: leader\nNode count: 5\n"));
        assertEquals(MemberMode.FOLLOWER, MemberMode.fromSrvr("Mode: follower\n"));
        assertEquals(MemberMode.OBSERVER, MemberMode.fromSrvr("Mode: observer\n"));
        assertEquals(MemberMode.STANDALONE, MemberMode.fromSrvr("Mode: standalone\n"));
        assertEquals(MemberMode.NOT_SERVING,
                MemberMode.fromSrvr("This ZooKeeper instance is not currently serving requests\n"));
        assertTrue(MemberMode.OBSERVER.servesInEnsemble());
        assertTrue(!MemberMode.STANDALONE.servesInEnsemble());
    }

    @Test
    void anEnabledAdminServerWithoutAPortGetsAFreePortPerMember() throws Exception {
        ClusterSpec spec = ClusterSpec.builder(Flavour.WARDEN, tmp.resolve("admin"), "cp")
                .configLine("admin.enableServer=true").build();
        try (LocalCluster cluster = LocalCluster.create(spec)) {
            java.util.Set<Integer> adminPorts = new java.util.HashSet<>();
            for (int id : cluster.ids()) {
                List<String> lines = Files.readAllLines(cluster.member(id).configFile());
                List<String> portLines = lines.stream().filter(line -> line.startsWith("admin.serverPort=")).toList();
                assertEquals(1, portLines.size(), "member " + id + ": " + lines);
                int port = Integer.parseInt(portLines.get(0).substring("admin.serverPort=".length()));
                assertEquals(port, cluster.member(id).ports().adminPort());
                assertEquals("http://127.0.0.1:" + port + "/commands", cluster.member(id).adminUrl().orElseThrow());
                adminPorts.add(port);
            }
            assertEquals(3, adminPorts.size(), "every member has its own admin port: " + adminPorts);
        }
    }

    @Test
    void anAdminPortTheOperatorChoseOrADisabledAdminServerIsLeftAlone() throws Exception {
        for (List<String> extra : List.<List<String>>of(List.of(), List.of("admin.enableServer=false"),
                List.of("admin.enableServer=true", "admin.serverPort=18080"))) {
            ClusterSpec.Builder builder = ClusterSpec.builder(Flavour.WARDEN, tmp.resolve("a" + extra.size()), "cp");
            extra.forEach(builder::configLine);
            try (LocalCluster cluster = LocalCluster.create(builder.build())) {
                List<String> lines = Files.readAllLines(cluster.member(1).configFile());
                assertEquals(extra.contains("admin.serverPort=18080") ? 1 : 0,
                        lines.stream().filter(line -> line.startsWith("admin.serverPort=")).count(), extra + ": " + lines);
                assertTrue(cluster.member(1).adminUrl().isEmpty());
            }
        }
    }
}
