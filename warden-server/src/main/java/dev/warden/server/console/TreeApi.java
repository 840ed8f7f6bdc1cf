package dev.warden.server.console;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateResponse;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetACLRequest;
import dev.warden.protocol.GetACLResponse;
import dev.warden.protocol.GetChildren2Request;
import dev.warden.protocol.GetChildren2Response;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.SetDataRequest;
import dev.warden.protocol.SetDataResponse;
import dev.warden.protocol.Stat;
import dev.warden.server.net.ServerContext;
import dev.warden.state.auth.AclChecker;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Reply;
import dev.warden.state.pipeline.Request;
import dev.warden.state.tree.DataNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tree endpoints: a node (data, Stat, ACL and what the login may do to it), a page of its
 * children, and create, setData and delete. Reads go through the server's read processor and
 * writes through its pipeline ({@link ConsoleWriter}), both under the login's identities, so a
 * login sees and changes exactly what a client with the same credentials could.
 */
final class TreeApi {
    private final ServerContext server;
    private final ConsoleWriter writer;

    TreeApi(ServerContext server, ConsoleWriter writer) {
        this.server = server;
        this.writer = writer;
    }

    Map<String, Object> node(AuthIdentities who, String path) throws ConsoleException {
        ConsoleOrigin origin = new ConsoleOrigin(who);
        Reply data = read(origin, OpCode.GET_DATA, new GetDataRequest(path, false));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("path", path);
        if (data.error() == ErrorCode.OK) {
            GetDataResponse got = (GetDataResponse) data.body();
            byte[] bytes = got.data() == null ? new byte[0] : got.data();
            out.put("data_base64", Base64.getEncoder().encodeToString(bytes));
            out.put("stat", stat(got.stat()));
        } else if (data.error() == ErrorCode.NO_AUTH) {
            out.put("data_base64", null);
            out.put("read_refused", "this login may not read " + path + " (NOAUTH): its ACL grants it no READ");
        } else {
            throw refusal(data.error().code(), path, "read");
        }
        Reply acl = read(origin, OpCode.GET_ACL, new GetACLRequest(path));
        if (acl.error() == ErrorCode.OK) {
            GetACLResponse got = (GetACLResponse) acl.body();
            out.put("acl", acls(got.acl()));
            out.putIfAbsent("stat", stat(got.stat()));
        } else {
            out.put("acl", null);
        }
        out.put("can", permissions(who, path));
        return out;
    }

    Map<String, Object> children(AuthIdentities who, String path, String after, String prefix, int limit)
            throws ConsoleException {
        Reply reply = read(new ConsoleOrigin(who), OpCode.GET_CHILDREN2, new GetChildren2Request(path, false));
        if (reply.error() != ErrorCode.OK) {
            throw refusal(reply.error().code(), path, "list the children of");
        }
        List<String> names = ((GetChildren2Response) reply.body()).children();
        ChildPage page;
        try {
            page = ChildPage.of(names, after, prefix, limit);
        } catch (IllegalArgumentException e) {
            throw new ConsoleException(400, "BAD_REQUEST", e.getMessage());
        }
        List<Map<String, Object>> children = new ArrayList<>(page.names().size());
        var tree = server.stateMachine().tree();
        var lock = tree.readLock();
        lock.lock();
        try {
            for (String name : page.names()) {
                DataNode child = tree.node(childPath(path, name));
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("name", name);
                // a child deleted since the list was taken stays in the page, marked gone
                c.put("num_children", child == null ? 0 : child.numChildren());
                c.put("ephemeral", child != null && child.stat().ephemeralOwner() != 0);
                c.put("gone", child == null);
                children.add(c);
            }
        } finally {
            lock.unlock();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("path", path);
        out.put("total", names.size());
        out.put("matching", page.matching());
        out.put("children", children);
        out.put("next", page.next());
        return out;
    }

    Map<String, Object> create(AuthIdentities who, String path, byte[] data, boolean sequential, boolean creatorOnly)
            throws ConsoleException {
        List<Acl> acl = creatorOnly ? Perms.CREATOR_ALL_ACL : Perms.OPEN_ACL_UNSAFE;
        int flags = sequential ? 2 : 0; // ZooKeeper's CreateMode flags: 2 = persistent sequential
        var answer = writer.write(who, OpCode.CREATE, new CreateRequest(path, data, acl, flags));
        if (answer.err() != 0) {
            throw refusal(answer.err(), path, "create");
        }
        return Map.of("path", ((CreateResponse) answer.body()).path());
    }

    Map<String, Object> setData(AuthIdentities who, String path, byte[] data, int version) throws ConsoleException {
        var answer = writer.write(who, OpCode.SET_DATA, new SetDataRequest(path, data, version));
        if (answer.err() == ErrorCode.BAD_VERSION.code()) {
            throw stale(who, path, version, "changed");
        }
        if (answer.err() != 0) {
            throw refusal(answer.err(), path, "change");
        }
        return Map.of("path", path, "stat", stat(((SetDataResponse) answer.body()).stat()));
    }

    Map<String, Object> delete(AuthIdentities who, String path, int version) throws ConsoleException {
        var answer = writer.write(who, OpCode.DELETE, new DeleteRequest(path, version));
        if (answer.err() == ErrorCode.BAD_VERSION.code()) {
            throw stale(who, path, version, "deleted");
        }
        if (answer.err() != 0) {
            throw refusal(answer.err(), path, "delete");
        }
        return Map.of("path", path, "deleted", true);
    }

    /** A write refused because the node moved on since the page read it: says from which version to which. */
    private ConsoleException stale(AuthIdentities who, String path, int version, String verb) {
        Reply now = read(new ConsoleOrigin(who), OpCode.GET_DATA, new GetDataRequest(path, false));
        String current = now.error() == ErrorCode.OK
                ? "it is now at version " + ((GetDataResponse) now.body()).stat().version() : "it can no longer be read";
        return new ConsoleException(409, "BADVERSION", path + " was not " + verb + ": it changed since you read it"
                + " (you read version " + version + ", " + current + "). Reload it and try again.");
    }

    private Reply read(ConsoleOrigin origin, int opcode, dev.warden.protocol.Record body) {
        return server.reads().process(new Request(origin, 0, 0, opcode, body));
    }

    /** What the login may do here, from the ACLs the server will check (the page hides what it may not). */
    private Map<String, Object> permissions(AuthIdentities who, String path) {
        var tree = server.stateMachine().tree();
        var lock = tree.readLock();
        lock.lock();
        try {
            DataNode node = tree.node(path);
            Map<String, Object> can = new LinkedHashMap<>();
            boolean exists = node != null;
            can.put("read", exists && AclChecker.permits(node.acl(), Perms.READ, who));
            can.put("write", exists && AclChecker.permits(node.acl(), Perms.WRITE, who));
            can.put("create", exists && AclChecker.permits(node.acl(), Perms.CREATE, who));
            DataNode parent = path.equals("/") ? null : tree.node(parentOf(path));
            can.put("delete", parent != null && AclChecker.permits(parent.acl(), Perms.DELETE, who));
            can.put("admin", exists && AclChecker.permits(node.acl(), Perms.ADMIN, who));
            return can;
        } finally {
            lock.unlock();
        }
    }

    static ConsoleException refusal(int err, String path, String verb) {
        String code = ConsoleWriter.codeName(err);
        ErrorCode known = ErrorCode.of(err);
        int status = known == null ? 500 : switch (known) {
            case NO_NODE -> 404;
            case NO_AUTH -> 403;
            case NODE_EXISTS, NOT_EMPTY, BAD_VERSION -> 409;
            case BAD_ARGUMENTS, INVALID_ACL, NO_CHILDREN_FOR_EPHEMERALS -> 400;
            case QUOTA_EXCEEDED -> 422;
            default -> 500;
        };
        String why = known == null ? "error " + err : switch (known) {
            case NO_NODE -> "there is no such node";
            case NO_AUTH -> "this login's identities are not granted that by the ACL";
            case NODE_EXISTS -> "the node exists already";
            case NOT_EMPTY -> "the node has children; delete them first";
            case BAD_ARGUMENTS -> "the path is not valid";
            case QUOTA_EXCEEDED -> "a hard quota would be exceeded";
            default -> "the server answered " + code;
        };
        return new ConsoleException(status, code, "could not " + verb + " " + path + ": " + why + " (" + code + ")");
    }

    static Map<String, Object> stat(Stat stat) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("czxid", hex(stat.czxid()));
        s.put("mzxid", hex(stat.mzxid()));
        s.put("pzxid", hex(stat.pzxid()));
        s.put("ctime", stat.ctime());
        s.put("mtime", stat.mtime());
        s.put("version", stat.version());
        s.put("cversion", stat.cversion());
        s.put("aversion", stat.aversion());
        s.put("ephemeral_owner", hex(stat.ephemeralOwner()));
        s.put("data_length", stat.dataLength());
        s.put("num_children", stat.numChildren());
        return s;
    }

    private static List<Map<String, Object>> acls(List<Acl> acl) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Acl entry : acl) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("scheme", entry.id().scheme());
            a.put("id", entry.id().id());
            a.put("perms", perms(entry.perms()));
            list.add(a);
        }
        return list;
    }

    /** ZooKeeper's letters for permissions, in its order: cdrwa. */
    static String perms(int perms) {
        StringBuilder s = new StringBuilder();
        if ((perms & Perms.CREATE) != 0) {
            s.append('c');
        }
        if ((perms & Perms.DELETE) != 0) {
            s.append('d');
        }
        if ((perms & Perms.READ) != 0) {
            s.append('r');
        }
        if ((perms & Perms.WRITE) != 0) {
            s.append('w');
        }
        if ((perms & Perms.ADMIN) != 0) {
            s.append('a');
        }
        return s.toString();
    }

    static String hex(long value) {
        return "0x" + Long.toHexString(value);
    }

    static String childPath(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }
}
