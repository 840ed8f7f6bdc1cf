package dev.warden.sim;

import dev.warden.consensus.Entry;
import dev.warden.consensus.LogView;
import java.util.List;

/**
 * The core's view of a simulated member's log, as the server's {@code TxnLogView}: an entry the
 * log writer appended joins the view only once its batch is durable and the member loop has
 * published it ({@link #published}), so the core never serves, for a DIFF, an entry a crash could
 * still undo. A truncation, a snapshot install, a history set aside or a restart shows the log
 * as it is on disk again ({@link #reset}).
 */
final class SimLogView implements LogView {
    private final SimDisk disk;
    private long visibleZxid;

    SimLogView(SimDisk disk) {
        this.disk = disk;
        reset();
    }

    /** The log as it is on disk now is what the core sees. */
    void reset() {
        visibleZxid = disk.lastZxid();
    }

    /** Entries up to {@code zxid} are durable and published. */
    void published(long zxid) {
        visibleZxid = Math.max(visibleZxid, zxid);
    }

    @Override
    public long lastZxid() {
        return Math.min(disk.lastZxid(), visibleZxid);
    }

    @Override
    public long firstReadableZxid() {
        return disk.firstReadableZxid();
    }

    @Override
    public long floor(long zxid) {
        return disk.floor(Math.min(zxid, visibleZxid));
    }

    @Override
    public boolean contains(long zxid) {
        return zxid <= visibleZxid && disk.contains(zxid);
    }

    @Override
    public List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        return disk.read(afterZxid, Math.min(upToZxid, visibleZxid), maxEntries);
    }
}
