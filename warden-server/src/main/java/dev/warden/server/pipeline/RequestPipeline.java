package dev.warden.server.pipeline;

import dev.warden.protocol.OpCode;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Request;

/**
 * What a client connection hands its requests to: the standalone {@link Pipeline}, or an
 * ensemble member's replicated pipeline. Replies come back through each request's {@link Origin}.
 */
public interface RequestPipeline extends AutoCloseable {
    /** Queues a request. Returns true while the server is under its outstanding limit. */
    boolean submit(Request request);

    boolean isOverLimit();

    int outstanding();

    /**
     * True if a request with this opcode may be answered on the network thread when its session
     * has nothing in flight. A member must send {@code sync} through the leader.
     */
    default boolean answersInline(int opcode) {
        return ReadProcessor.isReadOp(opcode);
    }

    /** False while the server may not answer clients (an ensemble member that is not in sync). */
    default boolean isServing() {
        return true;
    }

    /**
     * True while the server, not serving, takes read-only sessions (an ensemble member cut off
     * from its quorum, with readonlymode.enabled); their reads are answered from the local tree
     * and their writes refused.
     */
    default boolean servesReadOnly() {
        return false;
    }

    /** A client re-attached to an existing session on this server (a member tells the leader). */
    default void sessionAttached(long sessionId) {
    }

    @Override
    void close();

    /** True for opcodes a member answers from its local state (everything read-only but sync). */
    static boolean isLocalRead(int opcode) {
        return ReadProcessor.isReadOp(opcode) && opcode != OpCode.SYNC;
    }
}
