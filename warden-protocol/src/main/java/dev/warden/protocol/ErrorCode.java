package dev.warden.protocol;

/** ReplyHeader.err values (KeeperException codes). */
public enum ErrorCode {
    OK(0),
    SYSTEM_ERROR(-1),
    RUNTIME_INCONSISTENCY(-2),
    DATA_INCONSISTENCY(-3),
    CONNECTION_LOSS(-4),
    MARSHALLING_ERROR(-5),
    UNIMPLEMENTED(-6),
    OPERATION_TIMEOUT(-7),
    BAD_ARGUMENTS(-8),
    UNKNOWN_SESSION(-12),
    NEW_CONFIG_NO_QUORUM(-13),
    RECONFIG_IN_PROGRESS(-14),
    API_ERROR(-100),
    NO_NODE(-101),
    NO_AUTH(-102),
    BAD_VERSION(-103),
    NO_CHILDREN_FOR_EPHEMERALS(-108),
    NODE_EXISTS(-110),
    NOT_EMPTY(-111),
    SESSION_EXPIRED(-112),
    INVALID_CALLBACK(-113),
    INVALID_ACL(-114),
    AUTH_FAILED(-115),
    SESSION_MOVED(-118),
    NOT_READONLY(-119),
    EPHEMERAL_ON_LOCAL_SESSION(-120),
    NO_WATCHER(-121),
    REQUEST_TIMEOUT(-122),
    RECONFIG_DISABLED(-123),
    SESSION_CLOSED_REQUIRE_SASL_AUTH(-124),
    QUOTA_EXCEEDED(-125),
    THROTTLED_OP(-127);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The code for a wire value, or null if the value names no known code. */
    public static ErrorCode of(int code) {
        for (ErrorCode value : values()) {
            if (value.code == code) {
                return value;
            }
        }
        return null;
    }
}
