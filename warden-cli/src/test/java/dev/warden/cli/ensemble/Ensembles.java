package dev.warden.cli.ensemble;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Shared set-up for the ensemble tests: which flavours to run, a started cluster, a connected client. */
final class Ensembles {
    /** Comma-separated flavours; the test-run configuration, read in this one place. */
    static final String FLAVOURS_PROPERTY = "warden.ensemble.flavours";
    static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private Ensembles() {
    }

    /** The flavours this run tests: {@value #FLAVOURS_PROPERTY}, default warden. */
    static List<Flavour> flavours() {
        String configured = System.getProperty(FLAVOURS_PROPERTY, "warden");
        return Arrays.stream(configured.split(",")).filter(s -> !s.isBlank()).map(Flavour::parse).toList();
    }

    /**
     * A fresh directory under {@code target/ensemble-runs} for one test's members. It outlives
     * the test on purpose, so a failure message can point at member logs that still exist;
     * {@link #closeAndDeleteIfPassed} removes it when the test passed.
     */
    static Path runDir(String testName) throws IOException {
        return Files.createDirectories(Path.of("target", "ensemble-runs",
                testName + "-" + System.currentTimeMillis()).toAbsolutePath());
    }

    /** Closes the cluster; deletes its files only if the test body finished without a failure. */
    static void closeAndDeleteIfPassed(LocalCluster cluster, boolean passed) throws InterruptedException {
        cluster.close();
        if (passed) {
            cluster.deleteFiles();
        }
    }

    /** A cluster whose members run on this test JVM's classpath, which holds both Warden and ZooKeeper. */
    static LocalCluster startCluster(Flavour flavour, Path baseDir, int tickTimeMs) throws Exception {
        return startCluster(specBuilder(flavour, baseDir).tickTimeMs(tickTimeMs).build());
    }

    /** A spec for members on this test JVM's classpath, to adjust before {@link #startCluster(ClusterSpec)}. */
    static ClusterSpec.Builder specBuilder(Flavour flavour, Path baseDir) {
        return ClusterSpec.builder(flavour, baseDir, ManagementFactory.getRuntimeMXBean().getClassPath());
    }

    /** Creates the cluster, starts every member and returns once they serve with one leader. */
    static LocalCluster startCluster(ClusterSpec spec) throws Exception {
        LocalCluster cluster = LocalCluster.create(spec);
        try {
            cluster.startAll();
            cluster.awaitQuorum(QUORUM_TIMEOUT);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** An Apache client session, returned once it is connected. */
    static ZooKeeper connect(String connectString, int sessionTimeoutMs) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, sessionTimeoutMs, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IllegalStateException("no session with " + connectString + " within " + CONNECT_TIMEOUT);
        }
        return zk;
    }

    /** Rewrites the member's zoo.cfg with these keys set (replacing earlier lines for them). */
    static void setKeys(Path zooCfg, Map<String, String> keys) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(zooCfg, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq < 0 || !keys.containsKey(line.substring(0, eq).trim())) {
                lines.add(line);
            }
        }
        keys.forEach((key, value) -> lines.add(key + "=" + value));
        Files.write(zooCfg, lines, StandardCharsets.UTF_8);
    }
}
