package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.LogView;
import dev.warden.storage.LogIterator;
import dev.warden.storage.LogRecord;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The core's read access to this member's log. The log holds every entry after
 * {@code firstReadableZxid}: the zxid recovery started from (the snapshot's), or the zxid of
 * the last snapshot installed from the leader. Reads scan the log; the core asks only while
 * synchronizing a follower, which is rare.
 */
public final class MemberLogView implements LogView {
    private final TxnLog txnLog;
    private volatile long firstReadableZxid;

    public MemberLogView(TxnLog txnLog, long firstReadableZxid) {
        this.txnLog = txnLog;
        this.firstReadableZxid = firstReadableZxid;
    }

    /** The log restarted after a snapshot installed at {@code zxid}. */
    public void restartedAfter(long zxid) {
        firstReadableZxid = zxid;
    }

    @Override
    public long lastZxid() {
        return txnLog.lastAppendedZxid();
    }

    @Override
    public long firstReadableZxid() {
        return Math.min(firstReadableZxid, lastZxid());
    }

    @Override
    public long floor(long zxid) {
        long floor = firstReadableZxid();
        try (LogIterator records = txnLog.readAfter(firstReadableZxid())) {
            while (records.hasNext()) {
                long next = records.next().zxid();
                if (next > zxid) {
                    break;
                }
                floor = next;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return floor;
    }

    @Override
    public boolean contains(long zxid) {
        return zxid > firstReadableZxid() && floor(zxid) == zxid;
    }

    @Override
    public List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        List<Entry> entries = new ArrayList<>();
        try (LogIterator records = txnLog.readAfter(afterZxid)) {
            while (records.hasNext() && entries.size() < maxEntries) {
                LogRecord record = records.next();
                if (record.zxid() > upToZxid) {
                    break;
                }
                if (record.zxid() > afterZxid) {
                    entries.add(new Entry(record.zxid(), record.payload()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }
}
