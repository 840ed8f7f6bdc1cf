package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.util.List;

/** The log operations a member's driver performs, over the transaction log. */
public final class MemberLog {
    private final TxnLog txnLog;

    public MemberLog(TxnLog txnLog) {
        this.txnLog = txnLog;
    }

    /** Appends the batch and forces it to disk once (group commit). */
    void persist(List<Entry> entries) throws IOException {
        for (Entry entry : entries) {
            txnLog.append(entry.zxid(), entry.payload());
        }
        txnLog.flush();
    }

    void truncateAfter(long zxid) throws IOException {
        txnLog.truncateAfter(zxid);
    }

    long lastZxid() {
        return txnLog.lastAppendedZxid();
    }

    TxnLog txnLog() {
        return txnLog;
    }
}
