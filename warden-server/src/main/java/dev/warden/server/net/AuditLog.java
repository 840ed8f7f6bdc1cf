package dev.warden.server.net;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateTTLRequest;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetACLRequest;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's audit log (audit.enable=true): one line per write a client of this server asked
 * for (create, delete, setData, setAcl, multiOperation) and for the server's start and stop, as
 * tab-separated key=value pairs in ZooKeeper's keys and order (session, user, ip, operation,
 * znode, znode_type, acl, result), on the logger {@code dev.warden.audit}. As in ZooKeeper, the
 * server the client is connected to logs it. Reads are not audited.
 */
public final class AuditLog {
    static final Logger AUDIT = LoggerFactory.getLogger("dev.warden.audit");

    private AuditLog() {
    }

    public static void serverStart() {
        AUDIT.info("user={}\toperation=serverStart\tresult=success", System.getProperty("user.name"));
    }

    public static void serverStop() {
        // logged before the server has stopped, hence "invoked", as ZooKeeper writes it
        AUDIT.info("user={}\toperation=serverStop\tresult=invoked", System.getProperty("user.name"));
    }

    /** One answered request of a client connection; writes only. {@code replyError} is the reply's error code. */
    public static void request(long sessionId, AuthIdentities who, String ip, Request request, int replyError) {
        String line = line(sessionId, who, ip, request, replyError);
        if (line != null) {
            AUDIT.info("{}", line);
        }
    }

    /** The audit line for a request, or null for one that is not audited (reads, undecodable bodies). */
    static String line(long sessionId, AuthIdentities who, String ip, Request request, int replyError) {
        String operation;
        String path = null;
        String znodeType = null;
        String acl = null;
        switch (request.opcode) {
            case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER -> {
                operation = "create";
                CreateRequest create = (CreateRequest) request.body;
                path = create.path();
                znodeType = request.opcode == OpCode.CREATE_CONTAINER ? "container" : typeOf(create.flags());
            }
            case OpCode.CREATE_TTL -> {
                operation = "create";
                CreateTTLRequest create = (CreateTTLRequest) request.body;
                path = create.path();
                znodeType = typeOf(create.flags());
            }
            case OpCode.DELETE -> {
                operation = "delete";
                path = ((DeleteRequest) request.body).path();
            }
            case OpCode.SET_DATA -> {
                operation = "setData";
                path = ((SetDataRequest) request.body).path();
            }
            case OpCode.SET_ACL -> {
                operation = "setAcl";
                SetACLRequest set = (SetACLRequest) request.body;
                path = set.path();
                acl = aclText(set.acl());
            }
            case OpCode.MULTI -> operation = "multiOperation";
            default -> {
                return null;
            }
        }
        if (request.body == null && request.opcode != OpCode.MULTI) {
            return null; // undecodable: answered MARSHALLINGERROR, nothing was attempted
        }
        boolean success = replyError == ErrorCode.OK.code() && request.multiErrors() == null;
        StringBuilder line = new StringBuilder();
        line.append("session=0x").append(Long.toHexString(sessionId));
        line.append("\tuser=").append(users(who));
        line.append("\tip=").append(ip);
        line.append("\toperation=").append(operation);
        if (path != null) {
            line.append("\tznode=").append(path);
        }
        if (znodeType != null) {
            line.append("\tznode_type=").append(znodeType);
        }
        if (acl != null) {
            line.append("\tacl=").append(acl);
        }
        line.append("\tresult=").append(success ? "success" : "failure");
        return line.toString();
    }

    /** ZooKeeper's user names of the identities: the address for ip, the user for digest. */
    static String users(AuthIdentities who) {
        List<String> users = new ArrayList<>();
        for (Id id : who.ids()) {
            switch (id.scheme()) {
                case "digest" -> users.add(id.id().substring(0, Math.max(0, id.id().indexOf(':'))));
                case AuthIdentities.SUPER_SCHEME -> {
                    // the super identity adds no user of its own: the digest user is listed
                }
                default -> users.add(id.id());
            }
        }
        return String.join(",", users);
    }

    private static String typeOf(int flags) {
        CreateMode mode = CreateMode.fromFlags(flags);
        return mode == null ? "unknown" : mode.name().toLowerCase(Locale.ROOT);
    }

    /** As ZooKeeper writes an ACL in the audit log: scheme:id:perms, comma-separated, perms as cdrwa letters. */
    static String aclText(List<Acl> acl) {
        List<String> entries = new ArrayList<>();
        for (Acl entry : acl == null ? List.<Acl>of() : acl) {
            entries.add(entry.id().scheme() + ":" + entry.id().id() + ":" + perms(entry.perms()));
        }
        return String.join(",", entries);
    }

    private static String perms(int perms) {
        StringBuilder out = new StringBuilder();
        if ((perms & 4) != 0) {
            out.append('c');
        }
        if ((perms & 8) != 0) {
            out.append('d');
        }
        if ((perms & 1) != 0) {
            out.append('r');
        }
        if ((perms & 2) != 0) {
            out.append('w');
        }
        if ((perms & 16) != 0) {
            out.append('a');
        }
        return out.toString();
    }
}
