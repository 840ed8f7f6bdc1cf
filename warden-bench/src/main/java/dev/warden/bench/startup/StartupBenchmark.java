package dev.warden.bench.startup;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Restarts followers of a running three-member ensemble and times each from the moment its
 * process is started until it grants a new session: what a client of a restarted member waits.
 */
final class StartupBenchmark {
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(120);
    private static final long SERVING_TIMEOUT_MS = 120_000;
    private static final long POLL_INTERVAL_MS = 5;

    private StartupBenchmark() {
    }

    /** Milliseconds from start to serving, one per round. */
    static List<Long> restartToServing(Flavour flavour, Path dir, String classPath, List<String> jvmOptions,
                                       int tickTimeMs, int znodes, int rounds, Consumer<String> progress)
            throws IOException, InterruptedException {
        ClusterSpec spec = ClusterSpec.builder(flavour, dir, classPath).participants(3).tickTimeMs(tickTimeMs)
                .jvmOptions(jvmOptions).build();
        LocalCluster cluster = LocalCluster.create(spec);
        try {
            cluster.startAll();
            cluster.awaitQuorum(QUORUM_TIMEOUT);
            load(cluster.connectString(), znodes);
            List<Long> times = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                int leader = cluster.awaitQuorum(QUORUM_TIMEOUT);
                int member = pickFollower(cluster, leader, round);
                cluster.stop(member);
                long started = System.nanoTime();
                cluster.start(member);
                int port = cluster.member(member).ports().clientPort();
                long deadline = started + TimeUnit.MILLISECONDS.toNanos(SERVING_TIMEOUT_MS);
                while (!SessionProbe.newSession(port)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(flavour + " member " + member + " did not serve within "
                                + SERVING_TIMEOUT_MS + " ms of its restart (" + cluster.describe() + ")");
                    }
                    Thread.sleep(POLL_INTERVAL_MS);
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                times.add(ms);
                progress.accept(flavour + " round " + (round + 1) + ": member " + member + " served " + ms
                        + " ms after its start");
            }
            return times;
        } finally {
            cluster.close();
            cluster.deleteFiles();
        }
    }

    private static int pickFollower(LocalCluster cluster, int leader, int round) {
        List<Integer> followers = new ArrayList<>(cluster.ids());
        followers.remove(Integer.valueOf(leader));
        return followers.get(round % followers.size());
    }

    /** Creates {@code znodes} small znodes, pipelined, so restarts have a tree to load. */
    private static void load(String connectString, int znodes) throws IOException, InterruptedException {
        if (znodes == 0) {
            return;
        }
        CountDownLatch connected = new CountDownLatch(1);
        try (ZooKeeper zk = new ZooKeeper(connectString, 30_000, event -> {
            if (event.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        })) {
            if (!connected.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no session with " + connectString);
            }
            Semaphore inFlight = new Semaphore(500);
            CountDownLatch done = new CountDownLatch(znodes);
            byte[] value = new byte[100];
            for (int i = 0; i < znodes; i++) {
                inFlight.acquire();
                zk.create("/startup-" + i, value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                        (rc, path, ctx, name) -> {
                            inFlight.release();
                            done.countDown();
                        }, null);
            }
            if (!done.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("loading " + znodes + " znodes took over 5 minutes");
            }
        }
    }
}
