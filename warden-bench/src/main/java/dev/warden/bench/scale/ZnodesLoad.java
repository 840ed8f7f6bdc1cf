package dev.warden.bench.scale;

import dev.warden.bench.compare.Deployment;
import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadClient;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The znodes dimension: the tree grows to {@code x} znodes of 100 bytes (1,000 under each of
 * x/1,000 parents), then sessions read and write random ones of them, 90 % getData; after the load
 * the server's heap is weighed after full collections. Each server's tree only grows, so a point
 * creates just the znodes the previous one did not.
 */
final class ZnodesLoad {
    static final int VALUE_BYTES = 100;
    static final int SESSIONS = 16;
    static final int IN_FLIGHT_PER_SESSION = 32;
    static final int READ_PERCENT = 90;
    private static final int LEAVES_PER_PARENT = 1000;
    private static final String TREE = "/warden-bench-scale-tree";

    /** Znodes each deployment's tree holds so far (a restarted server is a new deployment, with none). */
    private final Map<Deployment, Long> treeSizes = new IdentityHashMap<>();

    static String leaf(long i) {
        return String.format(Locale.ROOT, "%s/p%05d/n%03d", TREE, i / LEAVES_PER_PARENT, i % LEAVES_PER_PARENT);
    }

    private static String parent(long p) {
        return String.format(Locale.ROOT, "%s/p%05d", TREE, p);
    }

    ScalePoint measure(long x, Flavour flavour, Deployment deployment, ScaleOptions options)
            throws IOException, InterruptedException {
        int frameBytes = options.jvm().juteMaxBufferBytes();
        grow(deployment, x, frameBytes);
        byte[] value = new byte[VALUE_BYTES];
        ClosedLoopLoad.Result result = ClosedLoopLoad.runOnNewSessions(deployment.connectString(), SESSIONS,
                IN_FLIGHT_PER_SESSION, frameBytes, (client, done) -> {
                    String path = leaf(ThreadLocalRandom.current().nextLong(x));
                    if (ThreadLocalRandom.current().nextInt(100) < READ_PERCENT) {
                        client.getData(path, done);
                    } else {
                        client.setData(path, value, done);
                    }
                }, options.warmupSeconds(), options.measureSeconds());
        Path jcmd = options.jvm().javaExecutable().resolveSibling("jcmd");
        long heapBytes = ServerHeap.afterFullGcBytes(jcmd, deployment.memberPids().get(0));
        return new ScalePoint(ScaleDimension.ZNODES, x, flavour, result.opsPerSecond(), result.p50Us(),
                result.p99Us(), heapBytes / (1024.0 * 1024.0), null);
    }

    /** Creates leaves (and their parents) from the tree's present size up to {@code x}. */
    private void grow(Deployment deployment, long x, int frameBytes) throws IOException, InterruptedException {
        long present = treeSizes.getOrDefault(deployment, 0L);
        if (present >= x) {
            return;
        }
        LoadClient client = ClientKind.APACHE.connect(deployment.connectString(), ScaleRunner.SESSION_TIMEOUT_MS,
                frameBytes);
        try {
            if (present == 0) {
                TreeBuilder.create(client, 0, 1, i -> TREE, new byte[0]);
            }
            long firstNewParent = (present + LEAVES_PER_PARENT - 1) / LEAVES_PER_PARENT;
            long parents = (x + LEAVES_PER_PARENT - 1) / LEAVES_PER_PARENT;
            TreeBuilder.create(client, firstNewParent, parents, ZnodesLoad::parent, new byte[0]);
            TreeBuilder.create(client, present, x, ZnodesLoad::leaf, new byte[VALUE_BYTES]);
            treeSizes.put(deployment, x);
        } finally {
            client.close();
        }
    }
}
