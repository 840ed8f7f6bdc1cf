package dev.warden.client;

import dev.warden.protocol.ErrorCode;

/**
 * A failed operation: the ZooKeeper error code, the path it concerned (relative to the
 * chroot; null for session-wide operations) and, for a transaction, the index of the
 * sub-operation that failed. Unchecked, so it travels through {@code CompletableFuture}
 * stages and lambdas; the common codes have their own subclasses so callers can write
 * {@code catch (WardenException.NoNodeException e)}.
 */
public class WardenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String path;
    private final int failedOpIndex;
    /** Set by the client before the failure is handed out; never changes after that. */
    private boolean afterResend;

    public WardenException(ErrorCode code, String path, String message) {
        this(code, path, message, -1);
    }

    public WardenException(ErrorCode code, String path, String message, int failedOpIndex) {
        super(message(code, path, message));
        this.code = code;
        this.path = path;
        this.failedOpIndex = failedOpIndex;
    }

    private static String message(ErrorCode code, String path, String detail) {
        StringBuilder text = new StringBuilder(String.valueOf(code));
        if (path != null) {
            text.append(" for ").append(path);
        }
        if (detail != null) {
            text.append(": ").append(detail);
        }
        return text.toString();
    }

    public ErrorCode code() {
        return code;
    }

    public String path() {
        return path;
    }

    /** For a failed transaction, the index of the first failing sub-operation; else -1. */
    public int failedOpIndex() {
        return failedOpIndex;
    }

    /**
     * True when this answer came to a request the client sent again after a connection loss.
     * The first send may then have been applied: a versioned setData or delete that was applied
     * reports BAD_VERSION or NO_NODE on its resend, and only this flag tells that apart from
     * another writer's change.
     */
    public boolean afterResend() {
        return afterResend;
    }

    WardenException markResent() {
        afterResend = true;
        return this;
    }

    /** The most specific exception for a wire error code. */
    public static WardenException of(int wireCode, String path) {
        return of(wireCode, path, -1);
    }

    static WardenException of(int wireCode, String path, int failedOpIndex) {
        ErrorCode code = ErrorCode.of(wireCode);
        if (code == null) {
            return new WardenException(ErrorCode.SYSTEM_ERROR, path, "unknown error code " + wireCode, failedOpIndex);
        }
        return switch (code) {
            case NO_NODE -> new NoNodeException(path, failedOpIndex);
            case NODE_EXISTS -> new NodeExistsException(path, failedOpIndex);
            case BAD_VERSION -> new BadVersionException(path, failedOpIndex);
            case NOT_EMPTY -> new NotEmptyException(path, failedOpIndex);
            case NO_AUTH -> new NoAuthException(path, failedOpIndex);
            case CONNECTION_LOSS -> new ConnectionLossException(path, "connection to the server lost");
            case SESSION_EXPIRED -> new SessionExpiredException("session expired");
            case NOT_READONLY -> new NotReadOnlyException(path);
            default -> new WardenException(code, path, null, failedOpIndex);
        };
    }

    /** A write (or sync) on a read-only session: the member serving it is cut off from its quorum. */
    public static final class NotReadOnlyException extends WardenException {
        private static final long serialVersionUID = 1L;

        public NotReadOnlyException(String path) {
            super(ErrorCode.NOT_READONLY, path, "the server serves read-only sessions only (no quorum)", -1);
        }
    }

    /** The node does not exist (or, for create, its parent does not). */
    public static final class NoNodeException extends WardenException {
        private static final long serialVersionUID = 1L;

        public NoNodeException(String path, int failedOpIndex) {
            super(ErrorCode.NO_NODE, path, null, failedOpIndex);
        }
    }

    /** A node with that path already exists. */
    public static final class NodeExistsException extends WardenException {
        private static final long serialVersionUID = 1L;

        public NodeExistsException(String path, int failedOpIndex) {
            super(ErrorCode.NODE_EXISTS, path, null, failedOpIndex);
        }
    }

    /** The expected version did not match the node's. */
    public static final class BadVersionException extends WardenException {
        private static final long serialVersionUID = 1L;

        public BadVersionException(String path, int failedOpIndex) {
            super(ErrorCode.BAD_VERSION, path, null, failedOpIndex);
        }
    }

    /** Delete of a node that still has children. */
    public static final class NotEmptyException extends WardenException {
        private static final long serialVersionUID = 1L;

        public NotEmptyException(String path, int failedOpIndex) {
            super(ErrorCode.NOT_EMPTY, path, null, failedOpIndex);
        }
    }

    /** The node's ACL does not grant the needed permission to this session's identities. */
    public static final class NoAuthException extends WardenException {
        private static final long serialVersionUID = 1L;

        public NoAuthException(String path, int failedOpIndex) {
            super(ErrorCode.NO_AUTH, path, null, failedOpIndex);
        }
    }

    /**
     * The connection dropped before the reply arrived: the operation may or may not have
     * been applied. Only raised for operations the retry policy did not (or could not) retry.
     */
    public static class ConnectionLossException extends WardenException {
        private static final long serialVersionUID = 1L;

        public ConnectionLossException(String path, String message) {
            super(ErrorCode.CONNECTION_LOSS, path, message);
        }
    }

    /** The session is gone (expired on the server or detected locally); the client is dead. */
    public static final class SessionExpiredException extends WardenException {
        private static final long serialVersionUID = 1L;

        public SessionExpiredException(String message) {
            super(ErrorCode.SESSION_EXPIRED, null, message);
        }
    }

    /** The client was closed before the operation completed. */
    public static final class ClientClosedException extends ConnectionLossException {
        private static final long serialVersionUID = 1L;

        public ClientClosedException() {
            super(null, "client closed");
        }
    }

    /** Refused locally: the encoded request is larger than the configured frame limit. */
    public static final class RequestTooLargeException extends WardenException {
        private static final long serialVersionUID = 1L;

        public RequestTooLargeException(String path, int frameBytes, int maxFrameBytes) {
            super(ErrorCode.BAD_ARGUMENTS, path,
                    "request of " + frameBytes + " bytes exceeds maxFrameBytes " + maxFrameBytes);
        }
    }

    /** Refused locally: the client already holds its hard cap of queued and in-flight requests. */
    public static final class TooManyRequestsException extends WardenException {
        private static final long serialVersionUID = 1L;

        public TooManyRequestsException(String path, int maxQueuedRequests) {
            super(ErrorCode.THROTTLED_OP, path,
                    "more than maxQueuedRequests=" + maxQueuedRequests + " requests queued or in flight");
        }
    }

    /** A blocking call gave up waiting; the operation itself may still complete later. */
    public static final class TimeoutException extends WardenException {
        private static final long serialVersionUID = 1L;

        public TimeoutException(String message) {
            super(ErrorCode.OPERATION_TIMEOUT, null, message);
        }
    }
}
