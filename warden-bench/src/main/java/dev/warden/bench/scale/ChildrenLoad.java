package dev.warden.bench.scale;

import dev.warden.bench.compare.Deployment;
import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadClient;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.util.Locale;

/**
 * The children dimension: one node gets {@code x} children (timed), then sessions read them back
 * with getChildren in a closed loop. Each point has a parent of its own; the children of earlier
 * points stay in the tree, which a getChildren of another node does not read.
 */
final class ChildrenLoad {
    static final int SESSIONS = 8;
    /** Few in flight: at 100,000 children each reply is over a megabyte, which the client decodes into strings. */
    static final int IN_FLIGHT_PER_SESSION = 4;
    /** Child names are "c" and eight digits. */
    private static final int NAME_BYTES = 9;
    /** Reply header (xid, zxid, error) and the vector's length, with room to spare. */
    private static final int REPLY_OVERHEAD_BYTES = 64;
    private static final String PARENT_PREFIX = "/warden-bench-scale-children-";

    private ChildrenLoad() {
    }

    /** The size of the getChildren reply for {@code children} children: each name with its 4-byte length. */
    static long replyBytes(long children) {
        return REPLY_OVERHEAD_BYTES + children * (4 + NAME_BYTES);
    }

    /** The most children whose getChildren reply fits in {@code frameLimitBytes}. */
    static long maxChildren(int frameLimitBytes) {
        return (frameLimitBytes - REPLY_OVERHEAD_BYTES) / (4 + NAME_BYTES);
    }

    static ScalePoint measure(long x, Flavour flavour, Deployment deployment, ScaleOptions options)
            throws IOException, InterruptedException {
        int frameBytes = options.jvm().juteMaxBufferBytes();
        String parent = PARENT_PREFIX + x;
        long createNs;
        LoadClient creator = ClientKind.APACHE.connect(deployment.connectString(), ScaleRunner.SESSION_TIMEOUT_MS,
                frameBytes);
        try {
            TreeBuilder.create(creator, 0, 1, i -> parent, new byte[0]);
            createNs = TreeBuilder.create(creator, 0, x, i -> String.format(Locale.ROOT, "%s/c%08d", parent, i),
                    new byte[0]);
        } finally {
            creator.close();
        }
        ClosedLoopLoad.Result result = ClosedLoopLoad.runOnNewSessions(deployment.connectString(), SESSIONS,
                IN_FLIGHT_PER_SESSION, frameBytes, (client, done) -> client.getChildren(parent, (rc, names) -> {
                    // a short list would be a wrong answer, counted as a failure rather than as a fast read
                    done.done(rc == 0 && names.size() != x ? -1 : rc);
                }), options.warmupSeconds(), options.measureSeconds());
        return new ScalePoint(ScaleDimension.CHILDREN, x, flavour, result.opsPerSecond(), result.p50Us(),
                result.p99Us(), createNs / 1e6, null);
    }
}
