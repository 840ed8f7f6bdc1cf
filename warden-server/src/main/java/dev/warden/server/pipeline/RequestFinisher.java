package dev.warden.server.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.Stat;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Reply;
import dev.warden.state.pipeline.ReplyHeaders;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.WriteReplies;
import dev.warden.state.txn.TxnBody;
import java.util.List;

/** The pipeline's last stage for one request: applies its transaction, if any, and answers its origin. */
final class RequestFinisher {
    private final StateMachine stateMachine;
    private final PendingState pending;
    private final ReadProcessor reads;
    private final PipelineListener listener;

    RequestFinisher(StateMachine stateMachine, PendingState pending, ReadProcessor reads, PipelineListener listener) {
        this.stateMachine = stateMachine;
        this.pending = pending;
        this.reads = reads;
        this.listener = listener;
    }

    /** Applies the request's transaction (a write that was logged) or answers it as a read or a failure. */
    void finish(Request request) {
        Origin origin = request.origin;
        if (request.txn() != null) {
            List<Stat> stats = stateMachine.apply(request.txn());
            pending.applied(request.pendingRecords());
            if (request.txn().body() instanceof TxnBody.Restore) {
                listener.stateRestored(); // before the restore is answered: old connections go first
            }
            if (origin == null) {
                if (request.txn().body() instanceof TxnBody.CloseSession) {
                    listener.sessionClosed(request.sessionId);
                }
                return;
            }
            if (request.opcode == OpCode.CREATE_SESSION) {
                TxnBody.CreateSession created = (TxnBody.CreateSession) request.txn().body();
                origin.sessionCreated(request.txn().sessionId(), created.timeoutMs(), created.password());
                origin.requestDone(request);
                return;
            }
            reply(origin, request, ErrorCode.OK, WriteReplies.body(request, stats));
            if (request.opcode == OpCode.CLOSE_SESSION) {
                // After the reply is queued, so the client sees it before the socket closes.
                listener.sessionClosed(request.sessionId);
            }
            return;
        }
        if (origin == null) {
            return;
        }
        if (request.opcode == OpCode.CREATE_SESSION) {
            // Could not persist the session: tell the client it has none, then hang up.
            origin.send(null, ReplyHeaders.noSession(request.readOnlyPresent()));
            origin.closeAfterFlush();
            origin.requestDone(request);
            return;
        }
        if (request.multiErrors() != null) {
            reply(origin, request, ErrorCode.OK, WriteReplies.failedMulti(request.multiErrors()));
        } else if (request.error() != null) {
            reply(origin, request, request.error(), null);
            if (request.closeAfterReply()) {
                origin.closeAfterFlush();
            }
        } else if (!stateMachine.sessions().isActive(request.sessionId)) {
            reply(origin, request, ErrorCode.SESSION_EXPIRED, null);
        } else {
            Reply result = reads.process(request);
            reply(origin, request, result.error(), result.body());
        }
    }

    private void reply(Origin origin, Request request, ErrorCode error, Record body) {
        origin.send(ReplyHeaders.of(request, error, stateMachine.tree().lastAppliedZxid()),
                error == ErrorCode.OK ? body : null);
        origin.requestDone(request);
    }
}
