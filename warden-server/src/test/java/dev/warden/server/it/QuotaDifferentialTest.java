package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.StatsTrack;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.cli.DelQuotaCommand;
import org.apache.zookeeper.cli.ListQuotaCommand;
import org.apache.zookeeper.cli.SetQuotaCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Quotas set with ZooKeeper's own zkCli code (SetQuotaCommand, ListQuotaCommand, DelQuotaCommand)
 * against Apache ZooKeeper 3.9 with enforceQuota=true (its own JVM: ZooKeeper reads the flag once
 * per JVM) and against Warden with enforceQuota=true: the same stats nodes, the same refusals
 * (QUOTAEXCEEDED) and the same listings, step by step.
 */
class QuotaDifferentialTest {
    @TempDir
    Path dir;

    @Test
    void quotasBehaveAsInZooKeeper() throws Exception {
        int apachePort = FreePorts.pick();
        Process apache = startApache(apachePort, dir.resolve("apache"));
        try (WardenServer warden = WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("warden"))
                .clientPort(0).enforceQuota(true).build())) {
            awaitServing(apachePort);
            List<String> apacheSteps = run("127.0.0.1:" + apachePort);
            List<String> wardenSteps = run(warden.connectString());
            for (int i = 0; i < apacheSteps.size(); i++) {
                assertEquals(apacheSteps.get(i), wardenSteps.get(i), "step " + i);
            }
            assertEquals(apacheSteps.size(), wardenSteps.size());
            assertTrue(apacheSteps.stream().anyMatch(step -> step.contains("QUOTAEXCEEDED")), apacheSteps.toString());
        } finally {
            apache.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The same history against one server; each step's outcome as text. */
    private static List<String> run(String connect) throws Exception {
        List<String> steps = new ArrayList<>();
        ZooKeeper zk = ApacheClients.connect(connect);
        try {
            steps.add(step(() -> zk.create("/app", "xy".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT)));
            steps.add(step(() -> zk.create("/app/a", "abc".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT)));
            StatsTrack quota = new StatsTrack();
            quota.setCount(3);
            quota.setCountHardLimit(4);
            quota.setByteHardLimit(20);
            steps.add(step(() -> SetQuotaCommand.createQuota(zk, "/app", quota)));
            steps.add("limits " + data(zk, "/zookeeper/quota/app/zookeeper_limits"));
            steps.add("stats " + data(zk, "/zookeeper/quota/app/zookeeper_stats"));
            steps.add(step(() -> zk.create("/app/b", "12345".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT)));
            steps.add("stats " + data(zk, "/zookeeper/quota/app/zookeeper_stats"));
            steps.add(step(() -> zk.create("/app/c", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT)));
            steps.add(step(() -> zk.create("/app/c/deep", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT)));
            steps.add(step(() -> zk.setData("/app/b", new byte[30], -1).getDataLength()));
            steps.add(step(() -> zk.setData("/app/b", new byte[9], -1).getDataLength()));
            steps.add("stats " + data(zk, "/zookeeper/quota/app/zookeeper_stats"));
            steps.add(step(() -> {
                zk.delete("/app/a", -1);
                return "deleted";
            }));
            steps.add("stats " + data(zk, "/zookeeper/quota/app/zookeeper_stats"));
            steps.add("list " + ListQuotaCommand.listQuota(zk, "/app"));
            StatsTrack more = new StatsTrack();
            more.setCountHardLimit(10);
            steps.add(step(() -> SetQuotaCommand.createQuota(zk, "/app", more)));
            steps.add("limits " + data(zk, "/zookeeper/quota/app/zookeeper_limits"));
            steps.add(step(() -> zk.create("/app/c/deep", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT)));
            steps.add(step(() -> DelQuotaCommand.delQuota(zk, "/app", null)));
            steps.add(step(() -> zk.exists("/zookeeper/quota/app", false) == null ? "no quota" : "quota left"));
            steps.add(step(() -> zk.create("/app/e", new byte[100], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT)));
        } finally {
            zk.close();
        }
        return steps;
    }

    @FunctionalInterface
    private interface Step {
        Object run() throws Exception;
    }

    private static String step(Step step) {
        try {
            Object result = step.run();
            return "ok " + result;
        } catch (KeeperException e) {
            return "error " + e.code();
        } catch (Exception e) {
            return "failed " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static String data(ZooKeeper zk, String path) throws Exception {
        byte[] data = zk.getData(path, false, null);
        return data == null ? "null" : new String(data, StandardCharsets.UTF_8);
    }

    private static Process startApache(int port, Path dataDir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = dataDir.resolveSibling("apache.log").toFile();
        dataDir.toFile().mkdirs();
        return new ProcessBuilder(java, "-Xmx128m", "-Dzookeeper.enforceQuota=true",
                "-Dzookeeper.admin.enableServer=false", "-cp", ManagementFactory.getRuntimeMXBean().getClassPath(),
                "org.apache.zookeeper.server.ZooKeeperServerMain", Integer.toString(port), dataDir.toString())
                .redirectErrorStream(true).redirectOutput(log).start();
    }

    /**
     * Waits until the Apache server answers srvr with its mode: its port opens before it serves,
     * and on a slow start a client's first session could take longer than the test waits for one.
     */
    private static void awaitServing(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                last = dev.warden.server.net.FourLetterWordClient.ask("127.0.0.1:" + port, "srvr");
                if (last.contains("Mode: standalone")) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Apache ZooKeeper on port " + port + " is not serving: " + last);
    }
}
