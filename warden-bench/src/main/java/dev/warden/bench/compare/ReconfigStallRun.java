package dev.warden.bench.compare;

import dev.warden.bench.ExitCleanup;
import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.Stat;

/**
 * One measurement of one server: three members serving a write load, a fourth started (with
 * the three and itself in its zoo.cfg, as a joiner is) and added by {@code reconfig}, then
 * removed again; the longest stretch without a successful write during each change. The add's
 * window runs from the request until the fourth member serves plus {@link #AFTER_CHANGE_MS};
 * the removal's from the request until its answer plus the same.
 */
final class ReconfigStallRun {
    /** Load measured on after each change, so a stall that comes late (a re-election, a resync) counts. */
    static final long AFTER_CHANGE_MS = 3_000;
    private static final int JOINER = 4;
    private static final int SESSION_TIMEOUT_MS = 30_000;

    /**
     * The longest write stall while adding and while removing the fourth member, in ms, when each
     * began, in ms after its reconfig request was sent, and when each request was sent (wall
     * clock, to find the stall in the members' logs); and, as the floor they stand on, the longest
     * stall in the {@link #AFTER_CHANGE_MS} before the add, with the joiner running and nothing changing.
     */
    record Stalls(long addMs, long addStartsAfterMs, long removeMs, long removeStartsAfterMs, long failedWrites,
                  Instant addRequestedAt, Instant removeRequestedAt, long unchangedMs) {
    }

    private final JvmSettings jvm;
    private final int writers;
    private final long settleMs;
    private final long readyTimeoutMs;

    ReconfigStallRun(JvmSettings jvm, int writers, long settleMs, long readyTimeoutMs) {
        this.jvm = jvm;
        this.writers = writers;
        this.settleMs = settleMs;
        this.readyTimeoutMs = readyTimeoutMs;
    }

    Stalls measure(Flavour flavour, Path dir) throws Exception {
        LocalCluster cluster = LocalCluster.create(spec(flavour, dir));
        ExitCleanup.Registration stopAtExit = ExitCleanup.register(flavour.title() + " reconfig run", cluster::close);
        try {
            String joinerLine = dropJoinerFromTheOthers(cluster);
            for (int id = 1; id < JOINER; id++) {
                cluster.start(id);
            }
            cluster.awaitQuorum(Duration.ofMillis(readyTimeoutMs));
            String threeMembers = String.join(",", cluster.connectString(1), cluster.connectString(2),
                    cluster.connectString(3));
            try (WriteStalls load = WriteStalls.start(threeMembers, writers);
                 ZooKeeperAdmin admin = admin(threeMembers)) {
                Thread.sleep(settleMs); // the load reaches its pace, the JIT compiles the write path
                cluster.start(JOINER);
                // its JVM starting takes CPU the others share; it is not part of the change
                awaitAnswering(cluster, JOINER);
                Thread.sleep(settleMs);

                Instant addAt = Instant.now();
                long addFrom = System.nanoTime();
                WriteStalls.Stall unchanged = load.longestStall(addFrom - TimeUnit.MILLISECONDS.toNanos(AFTER_CHANGE_MS),
                        addFrom);
                admin.reconfigure(joinerLine, null, null, -1, new Stat());
                cluster.awaitServing(JOINER, Duration.ofMillis(readyTimeoutMs));
                Thread.sleep(AFTER_CHANGE_MS);
                WriteStalls.Stall addStall = load.longestStall(addFrom, System.nanoTime());

                Thread.sleep(settleMs);
                Instant removeAt = Instant.now();
                long removeFrom = System.nanoTime();
                admin.reconfigure(null, Integer.toString(JOINER), null, -1, new Stat());
                Thread.sleep(AFTER_CHANGE_MS);
                WriteStalls.Stall removeStall = load.longestStall(removeFrom, System.nanoTime());
                List<String> dead = new ArrayList<>();
                for (int id = 1; id < JOINER; id++) {
                    if (!cluster.mode(id).servesInEnsemble()) {
                        dead.add(id + " " + cluster.mode(id));
                    }
                }
                if (!dead.isEmpty()) {
                    throw new IllegalStateException(flavour.title() + ": members not serving after the removal: " + dead
                            + " (logs under " + cluster.spec().baseDir() + ")");
                }
                return new Stalls(addStall.lengthMs(), addStall.startsAfterMs(), removeStall.lengthMs(),
                        removeStall.startsAfterMs(), load.failures(), addAt, removeAt, unchanged.lengthMs());
            }
        } finally {
            cluster.close();
            stopAtExit.close();
        }
    }

    private ClusterSpec spec(Flavour flavour, Path dir) {
        List<String> jvmOptions = new ArrayList<>(Deployment.memberJvmOptions(jvm));
        // any session may reconfigure: both servers read it as ZooKeeper's system property
        jvmOptions.add("-Dzookeeper.skipACL=yes");
        ClusterSpec.Builder spec = ClusterSpec.builder(flavour, dir.resolve(flavour.cliName() + "-reconfig"),
                        jvm.classPath())
                .participants(JOINER).javaExecutable(jvm.javaExecutable()).jvmOptions(jvmOptions)
                .tickTimeMs(MemberConfig.TICK_TIME_MS);
        MemberConfig.commonLines(flavour, jvm.juteMaxBufferBytes()).forEach(spec::configLine);
        spec.configLine("reconfigEnabled=true");
        return spec.build();
    }

    /** Members 1–3 list only themselves; returns the joiner's own server line. */
    private static String dropJoinerFromTheOthers(LocalCluster cluster) throws IOException {
        String prefix = "server." + JOINER + "=";
        String joinerLine = null;
        for (int id = 1; id <= JOINER; id++) {
            Path zooCfg = cluster.member(id).configFile();
            List<String> lines = Files.readAllLines(zooCfg, StandardCharsets.UTF_8);
            for (String line : lines) {
                if (line.startsWith(prefix)) {
                    joinerLine = line;
                }
            }
            if (id != JOINER) {
                List<String> kept = lines.stream().filter(line -> !line.startsWith(prefix)).toList();
                Files.writeString(zooCfg, String.join("\n", kept) + "\n", StandardCharsets.UTF_8);
            }
        }
        if (joinerLine == null) {
            throw new IllegalStateException("the launcher wrote no line for member " + JOINER);
        }
        return joinerLine;
    }

    /** Waits until the member's client port answers srvr (serving or not). */
    private void awaitAnswering(LocalCluster cluster, int id) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readyTimeoutMs);
        while (cluster.mode(id) == MemberMode.UNREACHABLE) {
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("member " + id + " did not answer within " + readyTimeoutMs + " ms");
            }
            Thread.sleep(100);
        }
    }

    private static ZooKeeperAdmin admin(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeperAdmin admin = new ZooKeeperAdmin(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            admin.close();
            throw new IllegalStateException("no admin session with " + connectString);
        }
        return admin;
    }
}
