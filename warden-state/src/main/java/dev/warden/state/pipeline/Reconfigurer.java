package dev.warden.state.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.txn.TxnBody;

/**
 * Prepares a {@code reconfig} request: on an ensemble's leader, the change of members; elsewhere
 * the refusal ZooKeeper gives. Called by {@link Preparer} on its thread.
 */
public interface Reconfigurer {
    /**
     * The transaction for {@code request}, or a {@link PrepException} with ZooKeeper's error:
     * RECONFIGDISABLED, NOAUTH, RECONFIGINPROGRESS, BADARGUMENTS, BADVERSION, NEWCONFIGNOQUORUM.
     */
    TxnBody.Reconfig prepare(ReconfigRequest request, AuthIdentities who) throws PrepException;

    /** Preparation gave the change {@code zxid}: it is now on its way to the log. */
    default void prepared(long zxid) {
    }

    /**
     * A standalone server: RECONFIGDISABLED unless {@code reconfigEnabled}, then UNIMPLEMENTED,
     * as ZooKeeper answers (a standalone server has no ensemble to change).
     */
    static Reconfigurer standalone(boolean reconfigEnabled) {
        return (request, who) -> {
            throw new PrepException(reconfigEnabled ? ErrorCode.UNIMPLEMENTED : ErrorCode.RECONFIG_DISABLED);
        };
    }
}
