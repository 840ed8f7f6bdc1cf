package dev.warden.server.quorum;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.Request;

/**
 * A request of a session connected to this member, waiting in its session's queue on the apply
 * thread. Writes and syncs wait for the ensemble; reads wait only for the requests before them.
 */
final class LocalRequest {
    final Request request;
    final boolean awaitsEnsemble;
    boolean done;
    ErrorCode error = ErrorCode.OK;
    Record body;
    /** SESSIONMOVED: the client gets no reply, its connection is closed instead. */
    boolean closeInstead;
    /** createSession: the handshake answer goes out when it is this request's turn. */
    boolean sessionCreated;
    int timeoutMs;
    byte[] password;
    /** A local session's closeSession: once answered, the member forgets the session. */
    boolean endsLocalSession;

    LocalRequest(Request request) {
        this.request = request;
        boolean presetError = request.error() != null;
        this.awaitsEnsemble = !presetError
                && (Preparer.isWriteOp(request.opcode) || request.opcode == OpCode.SYNC);
        if (presetError) {
            done = true;
            error = request.error();
        }
    }

    boolean isWrite() {
        return awaitsEnsemble && request.opcode != OpCode.SYNC;
    }

    void complete(ErrorCode code, Record replyBody) {
        done = true;
        error = code;
        body = replyBody;
    }
}
