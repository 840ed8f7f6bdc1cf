package dev.warden.cli.shell;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.EventType;
import dev.warden.protocol.Stat;
import java.io.PrintStream;
import java.util.Date;
import java.util.Map;

/** Text in the shapes zkCli prints, so scripts written against zkCli read Warden's output too. */
final class Formats {
    /** How zkCli names error codes (its "KeeperErrorCode = ..." text) where not derivable. */
    private static final Map<ErrorCode, String> CODE_TEXT = Map.ofEntries(
            Map.entry(ErrorCode.NOT_EMPTY, "Directory not empty"),
            Map.entry(ErrorCode.SESSION_EXPIRED, "Session expired"),
            Map.entry(ErrorCode.INVALID_ACL, "InvalidACL"),
            Map.entry(ErrorCode.API_ERROR, "APIError"),
            Map.entry(ErrorCode.NO_WATCHER, "No such watcher"),
            Map.entry(ErrorCode.SESSION_MOVED, "Session moved"),
            Map.entry(ErrorCode.NOT_READONLY, "Not a read-only call"),
            Map.entry(ErrorCode.UNKNOWN_SESSION, "Unknown session"),
            Map.entry(ErrorCode.REQUEST_TIMEOUT, "Request timeout"),
            Map.entry(ErrorCode.QUOTA_EXCEEDED, "Quota has exceeded"),
            Map.entry(ErrorCode.THROTTLED_OP, "Op throttled due to high load"));

    private Formats() {
    }

    /** The eleven {@code name = value} lines of {@code stat}, {@code get -s} and {@code ls -s}. */
    static void printStat(PrintStream out, Stat stat) {
        out.println("cZxid = 0x" + Long.toHexString(stat.czxid()));
        out.println("ctime = " + new Date(stat.ctime()));
        out.println("mZxid = 0x" + Long.toHexString(stat.mzxid()));
        out.println("mtime = " + new Date(stat.mtime()));
        out.println("pZxid = 0x" + Long.toHexString(stat.pzxid()));
        out.println("cversion = " + stat.cversion());
        out.println("dataVersion = " + stat.version());
        out.println("aclVersion = " + stat.aversion());
        out.println("ephemeralOwner = 0x" + Long.toHexString(stat.ephemeralOwner()));
        out.println("dataLength = " + stat.dataLength());
        out.println("numChildren = " + stat.numChildren());
    }

    /** The one-line message for a failed server operation, worded as zkCli words it. */
    static String errorMessage(WardenException e) {
        String path = e.path();
        return switch (e.code()) {
            case NO_NODE -> "Node does not exist: " + path;
            case NODE_EXISTS -> "Node already exists: " + path;
            case NOT_EMPTY -> "Node not empty: " + path;
            case BAD_VERSION -> "version No is not valid : " + path;
            case NO_AUTH -> "Insufficient permission : " + path;
            case INVALID_ACL -> "Acl is not valid : " + path;
            case NO_CHILDREN_FOR_EPHEMERALS -> "Ephemerals cannot have children: " + path;
            case BAD_ARGUMENTS -> path == null ? e.getMessage() : "Argument error : " + path;
            default -> "KeeperErrorCode = " + codeText(e.code()) + (path == null ? "" : " for " + path);
        };
    }

    /** {@code NO_WATCHER} becomes "No such watcher", {@code CONNECTION_LOSS} "ConnectionLoss". */
    static String codeText(ErrorCode code) {
        String known = CODE_TEXT.get(code);
        if (known != null) {
            return known;
        }
        StringBuilder text = new StringBuilder();
        for (String part : code.name().split("_")) {
            text.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return text.toString();
    }

    /** A watch notification as zkCli shows it, on one line so scripts can grep it. */
    static String watchEvent(WatchEvent event) {
        return "WATCHER:: WatchedEvent state:SyncConnected type:" + eventTypeName(event.kind())
                + " path:" + event.path() + " zxid: " + event.zxid();
    }

    /** A connection state change, shaped like a watch event without a node ("type:None"). */
    static String stateEvent(ConnectionState state) {
        String keeperState = switch (state) {
            case CONNECTED, RECONNECTED -> "SyncConnected";
            case CONNECTED_READ_ONLY -> "ConnectedReadOnly";
            case SUSPENDED -> "Disconnected";
            case LOST -> "Expired";
            case CLOSED -> "Closed";
            case AUTH_FAILED -> "AuthFailed";
        };
        return "WATCHER:: WatchedEvent state:" + keeperState + " type:None path:null zxid: -1";
    }

    static String eventTypeName(WatchEvent.Kind kind) {
        return EventType.name(kind.wireType());
    }
}
