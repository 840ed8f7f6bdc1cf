package dev.warden.server.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Produces a seeded random workload over a small path universe so that operations collide
 * often (existing nodes, missing parents, non-empty deletes, version races).
 */
final class DiffOpGenerator {
    static final int SESSIONS = 4;
    private static final String[] NAMES = {"a", "b", "c"};
    private static final int MAX_LEARNED_PATHS = 64;

    private final Random random;
    private final List<String> learnedPaths = new ArrayList<>();
    private int nextIndex;

    DiffOpGenerator(long seed) {
        this.random = new Random(seed);
    }

    /** Remembers a path created with a sequential suffix so later ops can hit it. */
    void learn(String path) {
        if (learnedPaths.size() == MAX_LEARNED_PATHS) {
            learnedPaths.remove(random.nextInt(MAX_LEARNED_PATHS));
        }
        learnedPaths.add(path);
    }

    DiffOp next() {
        int roll = random.nextInt(1000);
        int session = random.nextInt(SESSIONS);
        if (roll < 5) {
            return op(DiffOp.Kind.CLOSE_SESSION, session, "/");
        } else if (roll < 15) {
            return addAuth(session);
        } else if (roll < 90) {
            return multi(session);
        } else if (roll < 110) {
            return readOnlyMulti(session);
        }
        return single(session, roll);
    }

    private DiffOp single(int session, int roll) {
        if (roll < 330) {
            return create(session, roll % 2 == 0 ? DiffOp.Kind.CREATE2 : DiffOp.Kind.CREATE);
        } else if (roll < 450) {
            return withVersion(DiffOp.Kind.DELETE, session, anyPath());
        } else if (roll < 580) {
            return new DiffOp(nextIndex++, DiffOp.Kind.SET_DATA, session, anyPath(), data(), version(), 0, 0, false,
                null, List.of());
        } else if (roll < 930) {
            DiffOp.Kind[] reads = {DiffOp.Kind.EXISTS, DiffOp.Kind.GET_DATA, DiffOp.Kind.GET_CHILDREN,
                DiffOp.Kind.GET_CHILDREN2, DiffOp.Kind.GET_ACL, DiffOp.Kind.GET_ALL_CHILDREN_NUMBER,
                DiffOp.Kind.GET_EPHEMERALS, DiffOp.Kind.SYNC};
            DiffOp.Kind kind = reads[random.nextInt(reads.length)];
            return new DiffOp(nextIndex++, kind, session, anyPath(), null, 0, 0, 0, random.nextInt(3) > 0, null,
                List.of());
        } else if (roll < 975) {
            // Half of the ACL changes re-open a node, so that the tree does not lock up over time.
            int acl = random.nextBoolean() ? 0 : random.nextInt(DiffSide.ACL_CHOICES);
            return new DiffOp(nextIndex++, DiffOp.Kind.SET_ACL, session, anyPath(), null, version(), acl, 0, false,
                null, List.of());
        }
        return new DiffOp(nextIndex++, DiffOp.Kind.REMOVE_WATCHES, session, anyPath(), null, 0, 0,
            random.nextInt(5), false, null, List.of());
    }

    private DiffOp create(int session, DiffOp.Kind kind) {
        int mode = random.nextInt(DiffSide.MODES);
        String path;
        if (DiffSide.isSequential(mode)) {
            // Sequential names go under shallow parents only, so depth-3 nodes never have children.
            path = shallowParent() + "/s-";
        } else if (DiffSide.isContainer(mode)) {
            // Containers only at the leaf level: one that never gets a child is never reaped, so
            // reaping (which is asynchronous) cannot make the two targets diverge.
            path = "/" + name() + "/" + name() + "/" + name();
        } else {
            path = fixedPath();
        }
        int acl = random.nextInt(10) < 9 ? 0 : random.nextInt(DiffSide.ACL_CHOICES);
        return new DiffOp(nextIndex++, kind, session, path, random.nextInt(8) == 0 ? null : data(), 0, acl, mode,
            false, null, List.of());
    }

    private DiffOp multi(int session) {
        int index = nextIndex++;
        List<DiffOp> subOps = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
            int pick = random.nextInt(4);
            subOps.add(switch (pick) {
                case 0 -> create(session, DiffOp.Kind.CREATE);
                case 1 -> withVersion(DiffOp.Kind.DELETE, session, anyPath());
                case 2 -> new DiffOp(nextIndex++, DiffOp.Kind.SET_DATA, session, anyPath(), data(), version(), 0, 0,
                    false, null, List.of());
                default -> withVersion(DiffOp.Kind.CHECK, session, anyPath());
            });
        }
        return new DiffOp(index, DiffOp.Kind.MULTI, session, "-", null, 0, 0, 0, false, null, subOps);
    }

    private DiffOp readOnlyMulti(int session) {
        int index = nextIndex++;
        List<DiffOp> subOps = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
            subOps.add(op(random.nextBoolean() ? DiffOp.Kind.GET_DATA : DiffOp.Kind.GET_CHILDREN, session, anyPath()));
        }
        return new DiffOp(index, DiffOp.Kind.MULTI_READ, session, "-", null, 0, 0, 0, false, null, subOps);
    }

    private DiffOp addAuth(int session) {
        String[] credentials = {"u1:pw", "u2:pw", "u1:wrong", Targets.SUPER_AUTH};
        int pick = random.nextInt(20) == 0 ? 3 : random.nextInt(3);
        return new DiffOp(nextIndex++, DiffOp.Kind.ADD_AUTH, session, "/", null, 0, 0, 0, false, credentials[pick],
            List.of());
    }

    private DiffOp op(DiffOp.Kind kind, int session, String path) {
        return new DiffOp(nextIndex++, kind, session, path, null, 0, 0, 0, false, null, List.of());
    }

    private DiffOp withVersion(DiffOp.Kind kind, int session, String path) {
        return new DiffOp(nextIndex++, kind, session, path, null, version(), 0, 0, false, null, List.of());
    }

    private String anyPath() {
        int roll = random.nextInt(100);
        if (roll < 3) {
            String[] special = {"/", "/zookeeper", "/zookeeper/config", "/zookeeper/quota"};
            return special[random.nextInt(special.length)];
        } else if (roll < 25 && !learnedPaths.isEmpty()) {
            return learnedPaths.get(random.nextInt(learnedPaths.size()));
        }
        return fixedPath();
    }

    private String fixedPath() {
        int depth = 1 + random.nextInt(3);
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            path.append('/').append(name());
        }
        return path.toString();
    }

    private String shallowParent() {
        int depth = random.nextInt(3);
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            path.append('/').append(name());
        }
        return path.toString();
    }

    private String name() {
        return NAMES[random.nextInt(NAMES.length)];
    }

    private int version() {
        return random.nextInt(4) - 1; // -1 (any) or a small version that is often right
    }

    private byte[] data() {
        return ("v" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
    }
}
