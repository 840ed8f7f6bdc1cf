package dev.warden.state.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.SnapshotBytes;

/**
 * Prep's side of a restore: it turns a restore request into its transaction and, until that
 * transaction is applied, holds every other write off. Prep checks a write against the applied
 * tree and the pending changes, and between a restore's prep and its apply neither is the state
 * the write will meet, so such a write is answered CONNECTIONLOSS: it did not happen, and its
 * connection is closed by the restore anyway. Session creation and closing do not depend on the
 * tree and go on (a session created meanwhile survives the restore).
 */
final class RestorePrep {
    private final PendingState pending;
    /** The zxid of a restore prepared and not yet known applied, else 0; prep thread only. */
    private long unappliedRestoreZxid;

    RestorePrep(PendingState pending) {
        this.pending = pending;
    }

    /**
     * True if {@code request} is refused (its error set to CONNECTIONLOSS) because a restore is on
     * its way to the tree.
     */
    boolean refusedMeanwhile(Request request) {
        if (unappliedRestoreZxid == 0) {
            return false;
        }
        if (pending.appliedZxid() >= unappliedRestoreZxid) {
            unappliedRestoreZxid = 0;
            return false;
        }
        if (request.opcode == OpCode.CREATE_SESSION || request.opcode == OpCode.CLOSE_SESSION) {
            return false;
        }
        request.error = ErrorCode.CONNECTION_LOSS;
        return true;
    }

    /**
     * The restore's transaction body, to be given the zxid after {@code lastZxid}. A snapshot
     * after {@code lastZxid} is refused (BADARGUMENTS): its nodes would carry zxids the history
     * has not reached, and zxids must only grow.
     */
    TxnBody.Restore prepare(Request request, long lastZxid) throws PrepException {
        byte[] file = ((RestoreRequest) request.body).snapshotFile();
        if (Long.compareUnsigned(SnapshotBytes.zxid(file), lastZxid) > 0) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        return new TxnBody.Restore(file);
    }

    void prepared(long zxid) {
        unappliedRestoreZxid = zxid;
    }

    /** Prepared transactions after {@code zxid} were discarded: a restore among them no longer holds writes off. */
    void resetTo(long zxid) {
        if (unappliedRestoreZxid > zxid) {
            unappliedRestoreZxid = 0;
        }
    }
}
