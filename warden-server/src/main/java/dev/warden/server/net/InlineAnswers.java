package dev.warden.server.net;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.RequestHeader;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.ReplyHeaders;
import dev.warden.state.pipeline.Request;

/**
 * The requests a connection answers on its own network thread: reads, and what a read-only
 * session may not do. Static: an object per connection would only hold the two arguments, on
 * every idle connection too.
 */
final class InlineAnswers {
    private InlineAnswers() {
    }

    /**
     * A read-only session's request that is not a read: a write (or sync) is answered NOTREADONLY,
     * as ZooKeeper's read-only server answers it; closeSession just closes the connection (a
     * session of this member alone ends with it; one of the ensemble's is left to the ensemble).
     * False when the request was answered here.
     */
    static boolean readOnlyAllows(ServerContext server, ClientConnection connection, RequestHeader header,
            long receivedNs) {
        int opcode = header.type();
        Request request = new Request(connection, connection.sessionId(), header.xid(), opcode, null)
                .receivedAt(receivedNs);
        if (opcode == OpCode.CLOSE_SESSION) {
            connection.sendReply(ReplyHeaders.of(request, ErrorCode.OK, server.state().lastAppliedZxid()), null);
            connection.closeAfterFlush();
            return false;
        }
        if (ReadOnlyRequests.refused(opcode) || !ReadProcessor.isReadOp(opcode)) {
            connection.sendReply(ReplyHeaders.of(request, ErrorCode.NOT_READONLY, server.state().lastAppliedZxid()),
                    null);
            connection.answered(request, System.nanoTime() - receivedNs);
            return false;
        }
        return true;
    }

    static void readInline(ServerContext server, ClientConnection connection, Request request, long receivedNs) {
        // Queue the reply before releasing the tree: a watch this read sets is fired under the
        // write lock, and its event must not reach the client ahead of the reply that set it.
        // asked under the tree's read lock: once read-only mode has ended (the member found a
        // leader) the tree may be rebuilt, so a read-only session reads nothing more from it and
        // its connection is closed instead of answered
        server.state().answerRead(request, () -> {
                    if (connection.readOnlySession()) {
                        if (!server.pipeline().servesReadOnly()) {
                            connection.closeNow();
                            return false;
                        }
                        return true;
                    }
                    return server.stateMachine().sessions().isActive(connection.sessionId());
                }, server.reads(),
                (reply, lastAppliedZxid) -> connection.sendReply(
                        ReplyHeaders.of(request, reply.error(), lastAppliedZxid),
                        reply.error() == ErrorCode.OK ? reply.body() : null));
        connection.answered(request, System.nanoTime() - receivedNs);
    }
}
