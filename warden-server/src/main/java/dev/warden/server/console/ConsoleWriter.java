package dev.warden.server.console;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.server.net.AuditLog;
import dev.warden.server.net.ServerContext;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Request;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one console write (create, setData, delete) through the server's request pipeline as a
 * client would: in a session of its own, opened for the write and closed after it, under the
 * logged-in identities. The pipeline's ACL checks, version checks, quotas and audit log apply
 * unchanged; on an ensemble member the write goes to the leader like any client's.
 */
final class ConsoleWriter {
    /** How long a write may take before the console gives up waiting (the write may still happen). */
    static final long REPLY_TIMEOUT_MS = 10_000;
    private static final int SESSION_TIMEOUT_MS = 30_000;

    private final ServerContext server;

    ConsoleWriter(ServerContext server) {
        this.server = server;
    }

    /** The reply's error code and body (null unless OK). */
    ConsoleOrigin.Answer write(AuthIdentities who, int opcode, Record body) throws ConsoleException {
        if (!server.pipeline().isServing()) {
            throw new ConsoleException(503, "NOT_SERVING", "this server is not serving clients now (no leader)");
        }
        ConsoleOrigin origin = new ConsoleOrigin(who);
        int timeoutMs = Math.max(server.config().minSessionTimeoutMs(),
                Math.min(server.config().maxSessionTimeoutMs(), SESSION_TIMEOUT_MS));
        server.pipeline().submit(Request.createSession(origin, timeoutMs, false));
        long sessionId = await(origin.session(), "open a session");
        try {
            var answer = origin.expect(1);
            Request request = new Request(origin, sessionId, 1, opcode, body);
            server.pipeline().submit(request);
            ConsoleOrigin.Answer result = await(answer, OpCode.name(opcode));
            if (server.config().auditEnabled()) {
                AuditLog.request(sessionId, who, who.address(), request, result.err());
            }
            return result;
        } finally {
            origin.expect(2);
            server.pipeline().submit(new Request(origin, sessionId, 2, OpCode.CLOSE_SESSION, null));
        }
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> future, String what)
            throws ConsoleException {
        try {
            return future.get(REPLY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ConsoleException(504, "TIMEOUT", "no answer to " + what + " within " + REPLY_TIMEOUT_MS
                    + " ms; the write may still take effect");
        } catch (ExecutionException e) {
            throw new ConsoleException(503, "NOT_SERVING", "could not " + what + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConsoleException(503, "NOT_SERVING", "interrupted");
        }
    }

    /** ZooKeeper's name for an error code, as its clients print it (BADVERSION, NOAUTH, ...). */
    static String codeName(int err) {
        ErrorCode code = ErrorCode.of(err);
        return code == null ? Integer.toString(err) : code.name().replace("_", "");
    }
}
