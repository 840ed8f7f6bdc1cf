package dev.warden.state.pipeline;

import dev.warden.protocol.Acl;
import dev.warden.protocol.AddWatchRequest;
import dev.warden.protocol.CheckWatchesRequest;
import dev.warden.protocol.ClientInfo;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.ErrorResponse;
import dev.warden.protocol.EventType;
import dev.warden.protocol.ExistsRequest;
import dev.warden.protocol.ExistsResponse;
import dev.warden.protocol.GetACLRequest;
import dev.warden.protocol.GetACLResponse;
import dev.warden.protocol.GetAllChildrenNumberRequest;
import dev.warden.protocol.GetAllChildrenNumberResponse;
import dev.warden.protocol.GetChildren2Request;
import dev.warden.protocol.GetChildren2Response;
import dev.warden.protocol.GetChildrenRequest;
import dev.warden.protocol.GetChildrenResponse;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.GetEphemeralsRequest;
import dev.warden.protocol.GetEphemeralsResponse;
import dev.warden.protocol.Id;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.MultiResponse;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.RemoveWatchesRequest;
import dev.warden.protocol.SetWatches2;
import dev.warden.protocol.SetWatches;
import dev.warden.protocol.SyncRequest;
import dev.warden.protocol.SyncResponse;
import dev.warden.protocol.WatcherType;
import dev.warden.protocol.WhoAmIResponse;
import dev.warden.state.auth.AclChecker;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import dev.warden.state.watch.WatchManager;
import dev.warden.state.watch.WatchRecipient;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes requests that change nothing. Each runs under the tree's read lock, so it sees a
 * whole transaction or none of it, and a watch it registers cannot miss the next change.
 */
public final class ReadProcessor {
    private final DataTree tree;
    private final WatchManager watches;

    /** The watches reads set; a restore drops them all. */
    public WatchManager watches() {
        return watches;
    }

    public ReadProcessor(DataTree tree, WatchManager watches) {
        this.tree = tree;
        this.watches = watches;
    }

    /** True for the opcodes this processor answers. */
    public static boolean isReadOp(int opcode) {
        return switch (opcode) {
            case OpCode.EXISTS, OpCode.GET_DATA, OpCode.GET_ACL, OpCode.GET_CHILDREN, OpCode.GET_CHILDREN2,
                 OpCode.GET_ALL_CHILDREN_NUMBER, OpCode.GET_EPHEMERALS, OpCode.MULTI_READ, OpCode.SYNC, OpCode.PING,
                 OpCode.SET_WATCHES, OpCode.SET_WATCHES2, OpCode.ADD_WATCH, OpCode.CHECK_WATCHES,
                 OpCode.REMOVE_WATCHES, OpCode.WHO_AM_I -> true;
            default -> false;
        };
    }

    public Reply process(Request request) {
        tree.readLock().lock();
        try {
            return dispatch(request);
        } finally {
            tree.readLock().unlock();
        }
    }

    private Reply dispatch(Request request) {
        Origin origin = request.origin;
        AuthIdentities who = origin.identities();
        WatchRecipient watcher = origin.watcher();
        return switch (request.opcode) {
            case OpCode.EXISTS -> exists((ExistsRequest) request.body, who, watcher);
            case OpCode.GET_DATA -> {
                GetDataRequest get = (GetDataRequest) request.body;
                yield getData(get.path(), get.watch(), who, watcher);
            }
            case OpCode.GET_ACL -> getAcl((GetACLRequest) request.body, who);
            case OpCode.GET_CHILDREN -> {
                GetChildrenRequest get = (GetChildrenRequest) request.body;
                yield getChildren(get.path(), get.watch(), false, who, watcher);
            }
            case OpCode.GET_CHILDREN2 -> {
                GetChildren2Request get = (GetChildren2Request) request.body;
                yield getChildren(get.path(), get.watch(), true, who, watcher);
            }
            case OpCode.GET_ALL_CHILDREN_NUMBER -> allChildrenNumber((GetAllChildrenNumberRequest) request.body, who);
            case OpCode.GET_EPHEMERALS -> ephemerals((GetEphemeralsRequest) request.body, request.sessionId);
            case OpCode.MULTI_READ -> multiRead((MultiRequest) request.body, who);
            case OpCode.SYNC -> Reply.ok(new SyncResponse(((SyncRequest) request.body).path()));
            case OpCode.PING -> Reply.ok(null);
            case OpCode.SET_WATCHES -> {
                SetWatches set = (SetWatches) request.body;
                yield setWatches(set.relativeZxid(), set.dataWatches(), set.existWatches(), set.childWatches(),
                        List.of(), List.of(), watcher);
            }
            case OpCode.SET_WATCHES2 -> {
                SetWatches2 set = (SetWatches2) request.body;
                yield setWatches(set.relativeZxid(), set.dataWatches(), set.existWatches(), set.childWatches(),
                        set.persistentWatches(), set.persistentRecursiveWatches(), watcher);
            }
            case OpCode.ADD_WATCH -> addWatch((AddWatchRequest) request.body, watcher);
            case OpCode.CHECK_WATCHES -> {
                CheckWatchesRequest check = (CheckWatchesRequest) request.body;
                yield removeWatches(check.path(), check.type(), false, watcher);
            }
            case OpCode.REMOVE_WATCHES -> {
                RemoveWatchesRequest remove = (RemoveWatchesRequest) request.body;
                yield removeWatches(remove.path(), remove.type(), true, watcher);
            }
            case OpCode.WHO_AM_I -> whoAmI(who);
            default -> Reply.error(ErrorCode.UNIMPLEMENTED);
        };
    }

    private Reply exists(ExistsRequest exists, AuthIdentities who, WatchRecipient watcher) {
        String path = exists.path();
        if (path == null || path.indexOf('\0') >= 0) {
            return Reply.error(ErrorCode.BAD_ARGUMENTS);
        }
        DataNode node = tree.node(path);
        if (node != null && !AclChecker.permits(node.acl(), Perms.READ, who)) {
            return Reply.error(ErrorCode.NO_AUTH);
        }
        if (exists.watch() && !watches.addDataWatch(path, watcher)) {
            return Reply.error(ErrorCode.QUOTA_EXCEEDED);
        }
        return node == null ? Reply.error(ErrorCode.NO_NODE) : Reply.ok(new ExistsResponse(node.stat()));
    }

    private Reply getData(String path, boolean watch, AuthIdentities who, WatchRecipient watcher) {
        DataNode node = path == null ? null : tree.node(path);
        if (node == null) {
            return Reply.error(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(node.acl(), Perms.READ, who)) {
            return Reply.error(ErrorCode.NO_AUTH);
        }
        if (watch && !watches.addDataWatch(path, watcher)) {
            return Reply.error(ErrorCode.QUOTA_EXCEEDED);
        }
        return Reply.ok(new GetDataResponse(node.data(), node.stat()));
    }

    private Reply getAcl(GetACLRequest get, AuthIdentities who) {
        DataNode node = get.path() == null ? null : tree.node(get.path());
        if (node == null) {
            return Reply.error(ErrorCode.NO_NODE);
        }
        boolean admin = AclChecker.permits(node.acl(), Perms.ADMIN, who);
        if (!admin && !AclChecker.permits(node.acl(), Perms.READ, who)) {
            return Reply.error(ErrorCode.NO_AUTH);
        }
        List<Acl> acl = admin ? node.acl() : AclChecker.maskDigests(node.acl());
        return Reply.ok(new GetACLResponse(acl, node.stat()));
    }

    private Reply getChildren(String path, boolean watch, boolean withStat, AuthIdentities who, WatchRecipient watcher) {
        DataNode node = path == null ? null : tree.node(path);
        if (node == null) {
            return Reply.error(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(node.acl(), Perms.READ, who)) {
            return Reply.error(ErrorCode.NO_AUTH);
        }
        if (watch && !watches.addChildWatch(path, watcher)) {
            return Reply.error(ErrorCode.QUOTA_EXCEEDED);
        }
        List<String> children = node.children();
        return Reply.ok(withStat ? new GetChildren2Response(children, node.stat()) : new GetChildrenResponse(children));
    }

    private Reply allChildrenNumber(GetAllChildrenNumberRequest get, AuthIdentities who) {
        DataNode node = get.path() == null ? null : tree.node(get.path());
        if (node == null) {
            return Reply.error(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(node.acl(), Perms.READ, who)) {
            return Reply.error(ErrorCode.NO_AUTH);
        }
        return Reply.ok(new GetAllChildrenNumberResponse(tree.descendantCount(get.path())));
    }

    private Reply ephemerals(GetEphemeralsRequest get, long sessionId) {
        String prefix = get.prefixPath();
        boolean all = prefix == null || prefix.isBlank() || prefix.equals("/");
        List<String> result = new ArrayList<>();
        for (String path : tree.ephemerals(sessionId)) {
            if (all || path.startsWith(prefix)) {
                result.add(path);
            }
        }
        return Reply.ok(new GetEphemeralsResponse(result));
    }

    private Reply multiRead(MultiRequest multi, AuthIdentities who) {
        List<MultiResponse.Result> results = new ArrayList<>(multi.ops().size());
        for (MultiRequest.Op op : multi.ops()) {
            Reply reply;
            if (op.type() == OpCode.GET_DATA) {
                reply = getData(((GetDataRequest) op.request()).path(), false, who, null);
            } else if (op.type() == OpCode.GET_CHILDREN) {
                reply = getChildren(((GetChildrenRequest) op.request()).path(), false, false, who, null);
            } else {
                return Reply.error(ErrorCode.MARSHALLING_ERROR);
            }
            results.add(reply.error() == ErrorCode.OK
                    ? new MultiResponse.Result(op.type(), 0, reply.body())
                    : MultiResponse.Result.error(reply.error().code()));
        }
        return Reply.ok(new MultiResponse(results));
    }

    private Reply setWatches(long relativeZxid, List<String> data, List<String> exist, List<String> child,
                             List<String> persistent, List<String> recursive, WatchRecipient watcher) {
        boolean limited = false;
        for (String path : nonNull(data)) {
            DataNode node = tree.node(path);
            if (node == null) {
                watcher.process(EventType.NODE_DELETED, path, -1, null);
            } else if (node.mzxid() > relativeZxid) {
                watcher.process(EventType.NODE_DATA_CHANGED, path, -1, null);
            } else {
                limited |= !watches.addDataWatch(path, watcher);
            }
        }
        for (String path : nonNull(exist)) {
            if (tree.node(path) != null) {
                watcher.process(EventType.NODE_CREATED, path, -1, null);
            } else {
                limited |= !watches.addDataWatch(path, watcher);
            }
        }
        for (String path : nonNull(child)) {
            DataNode node = tree.node(path);
            if (node == null) {
                watcher.process(EventType.NODE_DELETED, path, -1, null);
            } else if (node.pzxid() > relativeZxid) {
                watcher.process(EventType.NODE_CHILDREN_CHANGED, path, -1, null);
            } else {
                limited |= !watches.addChildWatch(path, watcher);
            }
        }
        for (String path : nonNull(persistent)) {
            limited |= !watches.addPersistentWatch(path, watcher);
        }
        for (String path : nonNull(recursive)) {
            limited |= !watches.addPersistentRecursiveWatch(path, watcher);
        }
        return limited ? Reply.error(ErrorCode.QUOTA_EXCEEDED) : Reply.ok(null);
    }

    private static List<String> nonNull(List<String> paths) {
        return paths == null ? List.of() : paths;
    }

    private Reply addWatch(AddWatchRequest add, WatchRecipient watcher) {
        boolean added;
        if (add.mode() == WatcherType.ADD_WATCH_PERSISTENT) {
            added = watches.addPersistentWatch(add.path(), watcher);
        } else if (add.mode() == WatcherType.ADD_WATCH_PERSISTENT_RECURSIVE) {
            added = watches.addPersistentRecursiveWatch(add.path(), watcher);
        } else {
            return Reply.error(ErrorCode.MARSHALLING_ERROR);
        }
        return added ? Reply.ok(new ErrorResponse(0)) : Reply.error(ErrorCode.QUOTA_EXCEEDED);
    }

    private Reply removeWatches(String path, int type, boolean remove, WatchRecipient watcher) {
        if (!WatcherType.isValid(type)) {
            return Reply.error(ErrorCode.MARSHALLING_ERROR);
        }
        return watches.removeWatches(path, type, watcher, remove) ? Reply.ok(null) : Reply.error(ErrorCode.NO_WATCHER);
    }

    private Reply whoAmI(AuthIdentities who) {
        List<ClientInfo> infos = new ArrayList<>();
        for (Id id : who.ids()) {
            String user = switch (id.scheme()) {
                case "digest" -> id.id().split(":", 2)[0];
                case "ip", "x509", "sasl" -> id.id();
                default -> "";
            };
            infos.add(new ClientInfo(id.scheme(), user));
        }
        return Reply.ok(new WhoAmIResponse(infos));
    }
}
