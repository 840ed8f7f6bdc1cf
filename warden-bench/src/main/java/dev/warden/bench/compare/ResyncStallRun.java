package dev.warden.bench.compare;

import dev.warden.bench.ExitCleanup;
import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * One measurement of one server: three members holding {@code znodes} znodes serve a write
 * load on the leader; a follower is killed with SIGKILL, its data directory emptied (its myid
 * kept), as when a disk is replaced, and started again, so the leader must send it the whole
 * state (a SNAP). The longest stretch without a successful write from the restart until the
 * follower serves plus {@link ReconfigStallRun#AFTER_CHANGE_MS}, beside the same measure over the
 * {@code AFTER_CHANGE_MS} before the kill.
 */
final class ResyncStallRun {
    private static final String ROOT = "/bench-resync";
    private static final int VALUE_BYTES = 100;
    private static final int CREATES_PER_MULTI = 1_000;

    /**
     * The longest write stall while the emptied follower rejoined, in ms, and when it began (ms
     * after the restart); how long the follower took from its restart to serving; the longest
     * stall in the window before the kill (the floor); and the writes that failed meanwhile.
     */
    record Stalls(long resyncMs, long resyncStartsAfterMs, long followerBackMs, long unchangedMs, long failedWrites) {
    }

    private final JvmSettings jvm;
    private final int writers;
    private final int znodes;
    private final long settleMs;
    private final long readyTimeoutMs;

    ResyncStallRun(JvmSettings jvm, int writers, int znodes, long settleMs, long readyTimeoutMs) {
        this.jvm = jvm;
        this.writers = writers;
        this.znodes = znodes;
        this.settleMs = settleMs;
        this.readyTimeoutMs = readyTimeoutMs;
    }

    Stalls measure(Flavour flavour, Path dir) throws Exception {
        LocalCluster cluster = LocalCluster.create(spec(flavour, dir));
        ExitCleanup.Registration stopAtExit = ExitCleanup.register(flavour.title() + " resync run", cluster::close);
        try {
            cluster.startAll();
            cluster.awaitQuorum(Duration.ofMillis(readyTimeoutMs));
            int leader = cluster.leader().orElseThrow(() -> new IllegalStateException("no leader"));
            int follower = cluster.followers().get(0);
            fill(cluster.connectString(leader));
            try (WriteStalls load = WriteStalls.start(cluster.connectString(leader), writers)) {
                Thread.sleep(settleMs); // the load reaches its pace, the JIT compiles the write path
                long killAt = System.nanoTime();
                WriteStalls.Stall unchanged = load.longestStall(
                        killAt - TimeUnit.MILLISECONDS.toNanos(ReconfigStallRun.AFTER_CHANGE_MS), killAt);
                cluster.kill9(follower);
                emptyDataDirectory(cluster.member(follower).dataDir());
                long restartAt = System.nanoTime();
                cluster.start(follower);
                cluster.awaitServing(follower, Duration.ofMillis(readyTimeoutMs));
                long backMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartAt);
                Thread.sleep(ReconfigStallRun.AFTER_CHANGE_MS);
                WriteStalls.Stall resync = load.longestStall(restartAt, System.nanoTime());
                checkFollowerHoldsTheData(cluster.connectString(follower), flavour);
                return new Stalls(resync.lengthMs(), resync.startsAfterMs(), backMs, unchanged.lengthMs(),
                        load.failures());
            }
        } finally {
            cluster.close();
            stopAtExit.close();
        }
    }

    private ClusterSpec spec(Flavour flavour, Path dir) {
        ClusterSpec.Builder spec = ClusterSpec.builder(flavour, dir.resolve(flavour.cliName() + "-resync"),
                        jvm.classPath())
                .participants(3).javaExecutable(jvm.javaExecutable()).jvmOptions(Deployment.memberJvmOptions(jvm))
                .tickTimeMs(MemberConfig.TICK_TIME_MS);
        MemberConfig.commonLines(flavour, jvm.juteMaxBufferBytes()).forEach(spec::configLine);
        return spec.build();
    }

    /** {@code znodes} znodes of {@link #VALUE_BYTES} bytes under {@link #ROOT}, a thousand per multi. */
    private void fill(String connectString) throws Exception {
        byte[] value = "v".repeat(VALUE_BYTES).getBytes(StandardCharsets.UTF_8);
        try (ZooKeeper zk = WriteStalls.session(connectString)) {
            zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (int first = 0; first < znodes; first += CREATES_PER_MULTI) {
                List<Op> creates = new ArrayList<>(CREATES_PER_MULTI);
                for (int i = first; i < Math.min(znodes, first + CREATES_PER_MULTI); i++) {
                    creates.add(Op.create(nodePath(i), value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                }
                zk.multi(creates);
            }
        }
    }

    private static String nodePath(int i) {
        return String.format(java.util.Locale.ROOT, "%s/n%07d", ROOT, i);
    }

    /** Everything but myid goes, as on a new disk; a file that cannot be deleted fails the run. */
    private static void emptyDataDirectory(Path dataDir) throws IOException {
        List<Path> doomed;
        try (Stream<Path> files = Files.walk(dataDir)) {
            doomed = files.filter(p -> !p.equals(dataDir) && !p.equals(dataDir.resolve("myid")))
                    .sorted(Comparator.reverseOrder()).toList();
        }
        for (Path path : doomed) {
            Files.delete(path);
        }
    }

    /** A session on the follower alone finds the last znode loaded: it serves the leader's state, not an empty tree. */
    private void checkFollowerHoldsTheData(String followerOnly, Flavour flavour) throws Exception {
        if (znodes == 0) {
            return;
        }
        try (ZooKeeper zk = WriteStalls.session(followerOnly)) {
            if (zk.exists(nodePath(znodes - 1), false) == null) {
                throw new IllegalStateException(flavour.title() + ": the rejoined follower lacks " + nodePath(znodes - 1));
            }
        }
    }
}
