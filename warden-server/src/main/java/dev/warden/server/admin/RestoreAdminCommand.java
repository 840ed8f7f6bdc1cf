package dev.warden.server.admin;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.server.net.ServerContext;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.RestoreRequest;
import dev.warden.state.pipeline.SnapshotRestore;
import dev.warden.state.watch.WatchRecipient;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's {@code restore} admin command: the request's body, a snapshot file as the
 * {@code snapshot} command streams it, becomes the whole state. The file is verified completely
 * first (nothing changes if it is bad); then the restore travels the write path as one
 * transaction, so it is logged and fsynced (on a majority, on an ensemble) before it is applied
 * and answered with its zxid as {@code last_zxid}.
 */
final class RestoreAdminCommand {
    private static final Logger log = LoggerFactory.getLogger(RestoreAdminCommand.class);
    static final String OFFLINE_WAY = "or restore offline: stop the server and run `warden restore SNAPSHOT --data-dir"
            + " NEW` (docs/TOOLS.md; on an ensemble, into every member's data directory)";
    private static final String NOT_SERVING = "nothing was restored: this server is not serving (an ensemble member"
            + " without a quorum, or not yet in sync with its leader); try again once it serves, " + OFFLINE_WAY;
    /**
     * The restore requests' session: none. Their xids count up from 1, so a member matches each
     * to its own transaction, never to the leader's housekeeping (session 0, xid 0).
     */
    private static final long NO_SESSION = 0;
    private final java.util.concurrent.atomic.AtomicInteger nextXid = new java.util.concurrent.atomic.AtomicInteger(1);

    /** Where an answer goes: the HTTP status, the command's fields, the error (null on success). */
    @FunctionalInterface
    interface Answer {
        void send(HttpResponseStatus status, Map<String, Object> fields, String error);
    }

    private final ServerContext server;
    /** admin.restore.enabled: false answers every restore 503, as in ZooKeeper. */
    private final boolean enabled;
    private final AdminRateLimit rateLimit;

    RestoreAdminCommand(ServerContext server, boolean enabled, AdminRateLimit rateLimit) {
        this.server = server;
        this.enabled = enabled;
        this.rateLimit = rateLimit;
    }

    /** The largest body a restore takes on this JVM: see {@link #maxBodyBytes(long)}. */
    static int maxBodyBytes() {
        return maxBodyBytes(Runtime.getRuntime().maxMemory());
    }

    /**
     * The largest body a restore takes with a heap of {@code maxHeapBytes}: one restore
     * transaction must fit in one log record, and the file may take at most an eighth of the heap,
     * since a restore holds it several times over at once (the body, the check's full load, the
     * transaction, the state it becomes) beside the state it replaces.
     */
    static int maxBodyBytes(long maxHeapBytes) {
        return (int) Math.min(SnapshotRestore.maxSnapshotBytes(), maxHeapBytes / HEAP_SHARE);
    }

    /** The heap's share a restore's file may take: one part in this many. */
    static final int HEAP_SHARE = 8;

    /** The answer to a body larger than {@link #maxBodyBytes()}: 413, before it is read. */
    static String tooLarge(long bodyBytes) {
        return "the request body of " + bodyBytes + " bytes is above the " + maxBodyBytes() + " bytes a restore takes"
                + " here (the " + SnapshotRestore.maxSnapshotBytes() + " bytes one restore transaction can log, and an"
                + " eighth of this server's heap of " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB); "
                + OFFLINE_WAY;
    }

    /** Runs a restore of {@code body}; the answer comes through {@code answer}, maybe from another thread. */
    void run(byte[] body, AuthIdentities who, Answer answer) {
        // ZooKeeper's order: disabled, no body, rate limited; then the restore itself
        if (!enabled) {
            answer.send(HttpResponseStatus.SERVICE_UNAVAILABLE, Map.of(), "Restore command is disabled"
                    + " (admin.restore.enabled=false); " + OFFLINE_WAY.substring(3));
            return;
        }
        if (body.length == 0) {
            answer.send(HttpResponseStatus.BAD_REQUEST, Map.of(), "the request has no body: send the snapshot file"
                    + " the snapshot command streamed, as curl --data-binary @FILE does");
            return;
        }
        long waitMs = rateLimit.tryAcquire();
        if (waitMs > 0) {
            answer.send(HttpResponseStatus.TOO_MANY_REQUESTS, Map.of(), "Restore request was rate limited: one restore"
                    + " per admin.rateLimiterIntervalInMS (" + rateLimit.intervalMs() + " ms); try again in "
                    + (waitMs + 999) / 1000 + " s");
            return;
        }
        SnapshotRestore.Verified verified;
        try {
            verified = SnapshotRestore.verify(body);
        } catch (SnapshotRestore.RefusedSnapshot refused) {
            answer.send(HttpResponseStatus.BAD_REQUEST, Map.of(), "nothing was restored: " + refused.getMessage());
            return;
        }
        long appliedZxid = server.stateMachine().lastAppliedZxid();
        if (Long.compareUnsigned(verified.snapshotZxid(), appliedZxid) > 0) {
            answer.send(HttpResponseStatus.BAD_REQUEST, Map.of(), "nothing was restored: the snapshot is at zxid 0x"
                    + Long.toHexString(verified.snapshotZxid()) + ", after this server's last zxid 0x"
                    + Long.toHexString(appliedZxid) + "; zxids only grow, so restore it " + OFFLINE_WAY.substring(3));
            return;
        }
        if (!server.pipeline().isServing()) {
            answer.send(HttpResponseStatus.SERVICE_UNAVAILABLE, Map.of(), NOT_SERVING);
            return;
        }
        log.warn("admin restore from {}: replacing the whole state with a snapshot of zxid 0x{} ({} nodes, {} sessions)",
                who.address(), Long.toHexString(verified.snapshotZxid()), verified.nodeCount(), verified.sessionCount());
        Request request = new Request(new AdminOrigin(who, answer), NO_SESSION, nextXid.getAndIncrement(),
                RestoreRequest.OPCODE, new RestoreRequest(body));
        server.pipeline().submit(request);
    }

    /** The restore request's origin: its reply (the first thing it hears) becomes the HTTP answer. */
    private static final class AdminOrigin implements Origin {
        private final AuthIdentities who;
        private final Answer answer;
        private final java.util.concurrent.atomic.AtomicBoolean answered = new java.util.concurrent.atomic.AtomicBoolean();

        AdminOrigin(AuthIdentities who, Answer answer) {
            this.who = who;
            this.answer = answer;
        }

        @Override
        public AuthIdentities identities() {
            return who;
        }

        @Override
        public void send(ReplyHeader header, Record body) {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            ErrorCode error = ErrorCode.of(header.err());
            if (error == ErrorCode.OK) {
                log.warn("admin restore applied at zxid 0x{}", Long.toHexString(header.zxid()));
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("last_zxid", header.zxid());
                answer.send(HttpResponseStatus.OK, fields, null);
                return;
            }
            log.warn("admin restore refused: {}", error);
            answer.send(statusOf(error), Map.of(), "nothing was restored: " + reasonOf(error));
        }

        private static HttpResponseStatus statusOf(ErrorCode error) {
            return switch (error) {
                case CONNECTION_LOSS -> HttpResponseStatus.CONFLICT;
                case BAD_ARGUMENTS -> HttpResponseStatus.BAD_REQUEST;
                default -> HttpResponseStatus.SERVICE_UNAVAILABLE;
            };
        }

        private static String reasonOf(ErrorCode error) {
            return switch (error) {
                case CONNECTION_LOSS -> "another restore is on its way; wait for it to finish";
                case BAD_ARGUMENTS -> "the snapshot is after the last zxid; zxids only grow, so restore it "
                        + OFFLINE_WAY.substring(3);
                default -> "the transaction could not be made durable (" + error + "); " + OFFLINE_WAY;
            };
        }

        @Override
        public void requestDone(Request request) {
            // nothing to count: the admin port keeps no per-request figures
        }

        /**
         * A member drops its requests when it stops serving (it lost its leader, say). A restore
         * already forwarded may still have been committed, so the answer says the outcome is unknown.
         */
        @Override
        public void closeAfterFlush() {
            if (answered.compareAndSet(false, true)) {
                log.warn("admin restore: the member stopped serving before it heard the outcome");
                answer.send(HttpResponseStatus.SERVICE_UNAVAILABLE, Map.of(), "the outcome is unknown: this member"
                        + " stopped serving (it lost its leader or its quorum) before it heard whether the restore was"
                        + " committed; check the data and the server's last zxid before trying again");
            }
        }

        @Override
        public WatchRecipient watcher() {
            throw new IllegalStateException("a restore sets no watch");
        }

        @Override
        public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
            throw new IllegalStateException("a restore creates no session");
        }
    }
}
