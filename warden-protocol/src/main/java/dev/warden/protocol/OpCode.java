package dev.warden.protocol;

/** Request opcodes (RequestHeader.type), as numbered by the ZooKeeper 3.9 protocol. */
public final class OpCode {
    public static final int NOTIFICATION = 0;
    public static final int CREATE = 1;
    public static final int DELETE = 2;
    public static final int EXISTS = 3;
    public static final int GET_DATA = 4;
    public static final int SET_DATA = 5;
    public static final int GET_ACL = 6;
    public static final int SET_ACL = 7;
    public static final int GET_CHILDREN = 8;
    public static final int SYNC = 9;
    public static final int PING = 11;
    public static final int GET_CHILDREN2 = 12;
    public static final int CHECK = 13;
    public static final int MULTI = 14;
    public static final int CREATE2 = 15;
    public static final int RECONFIG = 16;
    public static final int CHECK_WATCHES = 17;
    public static final int REMOVE_WATCHES = 18;
    public static final int CREATE_CONTAINER = 19;
    public static final int DELETE_CONTAINER = 20;
    public static final int CREATE_TTL = 21;
    public static final int MULTI_READ = 22;
    public static final int AUTH = 100;
    public static final int SET_WATCHES = 101;
    public static final int SASL = 102;
    public static final int GET_EPHEMERALS = 103;
    public static final int GET_ALL_CHILDREN_NUMBER = 104;
    public static final int SET_WATCHES2 = 105;
    public static final int ADD_WATCH = 106;
    public static final int WHO_AM_I = 107;
    public static final int CREATE_SESSION = -10;
    public static final int CLOSE_SESSION = -11;
    public static final int ERROR = -1;

    /** Special xids. */
    public static final int XID_NOTIFICATION = -1;
    public static final int XID_PING = -2;
    public static final int XID_AUTH = -4;
    public static final int XID_SET_WATCHES = -8;

    private OpCode() {
    }

    public static String name(int op) {
        return switch (op) {
            case NOTIFICATION -> "notification";
            case CREATE -> "create";
            case DELETE -> "delete";
            case EXISTS -> "exists";
            case GET_DATA -> "getData";
            case SET_DATA -> "setData";
            case GET_ACL -> "getACL";
            case SET_ACL -> "setACL";
            case GET_CHILDREN -> "getChildren";
            case SYNC -> "sync";
            case PING -> "ping";
            case GET_CHILDREN2 -> "getChildren2";
            case CHECK -> "check";
            case MULTI -> "multi";
            case CREATE2 -> "create2";
            case RECONFIG -> "reconfig";
            case CHECK_WATCHES -> "checkWatches";
            case REMOVE_WATCHES -> "removeWatches";
            case CREATE_CONTAINER -> "createContainer";
            case DELETE_CONTAINER -> "deleteContainer";
            case CREATE_TTL -> "createTTL";
            case MULTI_READ -> "multiRead";
            case AUTH -> "auth";
            case SET_WATCHES -> "setWatches";
            case SASL -> "sasl";
            case GET_EPHEMERALS -> "getEphemerals";
            case GET_ALL_CHILDREN_NUMBER -> "getAllChildrenNumber";
            case SET_WATCHES2 -> "setWatches2";
            case ADD_WATCH -> "addWatch";
            case WHO_AM_I -> "whoAmI";
            case CREATE_SESSION -> "createSession";
            case CLOSE_SESSION -> "closeSession";
            case ERROR -> "error";
            default -> "unknown(" + op + ")";
        };
    }
}
