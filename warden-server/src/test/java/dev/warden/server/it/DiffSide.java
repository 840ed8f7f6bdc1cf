package dev.warden.server.it;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;

/**
 * One target of the differential run: its sessions, and the translation of every outcome into
 * a target-independent string. Session ids become slot labels, and zxids become the index of
 * the operation that produced them (where this side has seen it), so two correct servers give
 * identical strings even though their ids, times and zxid numbering differ.
 */
final class DiffSide implements AutoCloseable {
    static final int MODES = 7;
    private static final String CONFIG_NODE = "/zookeeper/config";
    static final int ACL_CHOICES = 7;
    private static final int SESSION_TIMEOUT_MS = 20_000;
    private static final long TTL_MS = 3_600_000;
    private static final CreateMode[] CREATE_MODES = {CreateMode.PERSISTENT, CreateMode.EPHEMERAL,
        CreateMode.PERSISTENT_SEQUENTIAL, CreateMode.EPHEMERAL_SEQUENTIAL, CreateMode.CONTAINER,
        CreateMode.PERSISTENT_WITH_TTL, CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL};

    private final TargetServer server;
    /** Both sides are ensembles: sync on a change of acting session, leave the config node out. */
    private final boolean ensembles;
    private int lastSession = -1;
    private final Client[] sessions = new Client[DiffOpGenerator.SESSIONS];
    private final List<List<String>> eventLogs = new ArrayList<>();
    private final Map<Long, String> sessionLabels = new HashMap<>();
    private final Map<Long, Integer> zxidToOp = new HashMap<>();
    private long lastWriteZxid;
    private int sessionGeneration;

    DiffSide(TargetServer server) throws Exception {
        this(server, false);
    }

    /**
     * With {@code ensembles}, a session about to act after another one did first syncs: its
     * member may not have applied the other session's writes yet (reads are served locally), and
     * a sync makes what it then sees deterministic. Operations on {@value #CONFIG_NODE} are not
     * run: an ensemble's config node lists its own members and ports.
     */
    DiffSide(TargetServer server, boolean ensembles) throws Exception {
        this.server = server;
        this.ensembles = ensembles;
        for (int slot = 0; slot < sessions.length; slot++) {
            eventLogs.add(Collections.synchronizedList(new ArrayList<>()));
            open(slot);
        }
    }

    static boolean isSequential(int mode) {
        return CREATE_MODES[mode].isSequential();
    }

    static boolean isContainer(int mode) {
        return CREATE_MODES[mode].isContainer();
    }

    String name() {
        return server.name();
    }

    private void open(int slot) throws Exception {
        List<String> log = eventLogs.get(slot);
        Watcher recorder = event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                log.add(event.getType() + " " + event.getPath());
            }
        };
        Client client = Client.connect(server.connectString(), SESSION_TIMEOUT_MS);
        client.zk.register(recorder);
        sessions[slot] = client;
        sessionLabels.put(client.sessionId(), "s" + slot + "." + sessionGeneration++);
    }

    /** Runs {@code op} and describes its outcome; fails on a zxid or time invariant violation. */
    String execute(DiffOp op) throws Exception {
        if (ensembles && touchesConfigNode(op)) {
            return "not compared on ensembles: " + CONFIG_NODE;
        }
        ZooKeeper zk = sessions[op.session()].zk;
        if (ensembles && op.session() != lastSession) {
            String synced = sync(zk, "/");
            if (!synced.equals("/")) {
                throw new AssertionError(name() + ": sync before op #" + op.index() + " failed: " + synced);
            }
        }
        lastSession = op.session();
        try {
            return run(zk, op);
        } catch (KeeperException e) {
            String results = e.getResults() == null ? "" : " " + describe(op, e.getResults());
            return "err " + e.code() + results;
        } catch (IllegalArgumentException e) {
            return "client rejected";
        }
    }

    private static boolean touchesConfigNode(DiffOp op) {
        return CONFIG_NODE.equals(op.path()) || op.subOps().stream().anyMatch(sub -> CONFIG_NODE.equals(sub.path()));
    }

    private String run(ZooKeeper zk, DiffOp op) throws Exception {
        Stat stat = new Stat();
        switch (op.kind()) {
            case CREATE:
                return "created " + zk.create(op.path(), op.data(), acl(op.aclChoice()), CREATE_MODES[op.modeChoice()],
                    null, ttl(op.modeChoice()));
            case CREATE2:
                String path = zk.create(op.path(), op.data(), acl(op.aclChoice()), CREATE_MODES[op.modeChoice()], stat,
                    ttl(op.modeChoice()));
                learnWrite(stat.getCzxid(), op.index());
                return "created " + path + " " + stat(stat);
            case DELETE:
                zk.delete(op.path(), op.version());
                return "deleted";
            case SET_DATA:
                Stat set = zk.setData(op.path(), op.data(), op.version());
                learnWrite(set.getMzxid(), op.index());
                return "set " + stat(set);
            case EXISTS:
                Stat exists = zk.exists(op.path(), op.watch());
                return exists == null ? "absent" : "exists " + stat(exists);
            case GET_DATA:
                byte[] data = zk.getData(op.path(), op.watch(), stat);
                return "data " + text(data) + " " + stat(stat);
            case GET_CHILDREN:
                return "children " + sorted(zk.getChildren(op.path(), op.watch()));
            case GET_CHILDREN2:
                List<String> children = zk.getChildren(op.path(), op.watch(), stat);
                return "children " + sorted(children) + " " + stat(stat);
            case GET_ACL:
                return "acl " + describe(zk.getACL(op.path(), stat)) + " " + stat(stat);
            case SET_ACL:
                return "acl set " + stat(zk.setACL(op.path(), acl(op.aclChoice()), op.version()));
            case ADD_AUTH:
                zk.addAuthInfo("digest", op.auth().getBytes(StandardCharsets.UTF_8));
                return "auth added";
            case GET_EPHEMERALS:
                List<String> ephemerals = new ArrayList<>(zk.getEphemerals(op.path()));
                return "ephemerals " + sorted(ephemerals);
            case GET_ALL_CHILDREN_NUMBER:
                return "descendants " + zk.getAllChildrenNumber(op.path());
            case SYNC:
                return "synced " + sync(zk, op.path());
            case REMOVE_WATCHES:
                zk.removeAllWatches(op.path(), Watcher.WatcherType.values()[op.modeChoice()], false);
                return "watches removed";
            case MULTI:
            case MULTI_READ:
                return "multi " + describe(op, zk.multi(subOps(op)));
            case CLOSE_SESSION:
                sessions[op.session()].close();
                open(op.session());
                return "session reopened";
            default:
                throw new IllegalStateException("not a top-level op: " + op.kind());
        }
    }

    private List<Op> subOps(DiffOp multi) {
        List<Op> ops = new ArrayList<>();
        for (DiffOp sub : multi.subOps()) {
            ops.add(switch (sub.kind()) {
                case CREATE -> Op.create(sub.path(), sub.data(), acl(sub.aclChoice()), CREATE_MODES[sub.modeChoice()],
                    ttl(sub.modeChoice()));
                case DELETE -> Op.delete(sub.path(), sub.version());
                case SET_DATA -> Op.setData(sub.path(), sub.data(), sub.version());
                case CHECK -> Op.check(sub.path(), sub.version());
                case GET_DATA -> Op.getData(sub.path());
                case GET_CHILDREN -> Op.getChildren(sub.path());
                default -> throw new IllegalStateException("not a sub-op: " + sub.kind());
            });
        }
        return ops;
    }

    private String describe(DiffOp multi, List<OpResult> results) {
        List<String> parts = new ArrayList<>();
        for (OpResult result : results) {
            if (result instanceof OpResult.CreateResult created) {
                if (created.getStat() != null) {
                    learnWrite(created.getStat().getCzxid(), multi.index());
                }
                parts.add("created " + created.getPath() + (created.getStat() == null ? "" : " " + stat(created.getStat())));
            } else if (result instanceof OpResult.SetDataResult set) {
                learnWrite(set.getStat().getMzxid(), multi.index());
                parts.add("set " + stat(set.getStat()));
            } else if (result instanceof OpResult.ErrorResult error) {
                parts.add("err " + KeeperException.Code.get(error.getErr()));
            } else if (result instanceof OpResult.GetDataResult got) {
                parts.add("data " + text(got.getData()) + " " + stat(got.getStat()));
            } else if (result instanceof OpResult.GetChildrenResult got) {
                parts.add("children " + sorted(new ArrayList<>(got.getChildren())));
            } else {
                parts.add(result.getClass().getSimpleName());
            }
        }
        return parts.toString();
    }

    /** Records the zxid a successful write produced; zxids must rise from write to write. */
    private void learnWrite(long zxid, int opIndex) {
        Integer known = zxidToOp.get(zxid);
        if (known != null && known == opIndex) {
            return; // another sub-op of the same multi
        }
        if (zxid <= lastWriteZxid) {
            throw new AssertionError(name() + ": zxid " + Long.toHexString(zxid) + " of op #" + opIndex
                + " does not follow " + Long.toHexString(lastWriteZxid));
        }
        lastWriteZxid = zxid;
        zxidToOp.put(zxid, opIndex);
    }

    private String stat(Stat s) {
        if (s.getCzxid() > s.getMzxid() || s.getCtime() > s.getMtime() || s.getCzxid() > s.getPzxid()) {
            throw new AssertionError(name() + ": inconsistent stat " + s);
        }
        String owner = s.getEphemeralOwner() == 0 ? "0"
            : sessionLabels.getOrDefault(s.getEphemeralOwner(), "unknown-session");
        return "{v" + s.getVersion() + " cv" + s.getCversion() + " av" + s.getAversion() + " own=" + owner + " len"
            + s.getDataLength() + " n" + s.getNumChildren() + " cz=" + zxid(s.getCzxid()) + " mz=" + zxid(s.getMzxid())
            + " pz=" + zxid(s.getPzxid()) + "}";
    }

    private String zxid(long zxid) {
        if (zxid == 0) {
            return "0";
        }
        Integer op = zxidToOp.get(zxid);
        return op == null ? "?" : "#" + op;
    }

    /** Waits until every event sent to each session before now has been delivered, then drains. */
    List<List<String>> drainEvents() throws Exception {
        List<List<String>> drained = new ArrayList<>();
        for (int slot = 0; slot < sessions.length; slot++) {
            sync(sessions[slot].zk, "/");
            List<String> log = eventLogs.get(slot);
            synchronized (log) {
                drained.add(new ArrayList<>(log));
                log.clear();
            }
        }
        return drained;
    }

    /** Completes on the client's event thread, so every earlier event has been delivered. */
    private static String sync(ZooKeeper zk, String path) throws Exception {
        CompletableFuture<String> done = new CompletableFuture<>();
        zk.sync(path, (rc, p, ctx) -> done.complete(rc == 0 ? p : "err " + KeeperException.Code.get(rc)), null);
        return done.get(20, TimeUnit.SECONDS);
    }

    private static long ttl(int mode) {
        return CREATE_MODES[mode].isTTL() ? TTL_MS : -1;
    }

    private static List<ACL> acl(int choice) {
        List<ACL> acl = new ArrayList<>();
        switch (choice) {
            case 0 -> acl.addAll(Ids.OPEN_ACL_UNSAFE);
            case 1 -> acl.addAll(Ids.READ_ACL_UNSAFE);
            case 2 -> acl.addAll(Ids.CREATOR_ALL_ACL);
            case 3 -> {
                acl.add(new ACL(Perms.ALL, new Id("digest", Targets.digestId("u1:pw"))));
                acl.add(new ACL(Perms.READ, Ids.ANYONE_ID_UNSAFE));
            }
            case 4 -> acl.add(new ACL(Perms.ALL, new Id("digest", Targets.digestId("u2:pw"))));
            case 5 -> acl.add(new ACL(Perms.READ | Perms.CREATE | Perms.DELETE, Ids.ANYONE_ID_UNSAFE));
            default -> acl.add(new ACL(Perms.ALL, new Id("digest", "malformed")));
        }
        return acl;
    }

    private static String describe(List<ACL> acl) {
        List<String> entries = new ArrayList<>();
        for (ACL entry : acl) {
            entries.add(entry.getPerms() + " " + entry.getId().getScheme() + ":" + entry.getId().getId());
        }
        return entries.toString();
    }

    private static String text(byte[] data) {
        return data == null ? "null" : new String(data, StandardCharsets.UTF_8);
    }

    private static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(names);
        Collections.sort(copy);
        return copy;
    }

    @Override
    public void close() throws Exception {
        for (Client client : sessions) {
            if (client != null) {
                client.close();
            }
        }
    }
}
