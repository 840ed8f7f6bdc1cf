package dev.warden.storage;

import java.nio.file.Path;

/** What the log knows about one segment file: its name and how far its durable data reaches. */
final class Segment {

    final Path path;
    final long firstZxid;
    /** The zxid of the record before this segment's first one in the log's history; 0 at its start. */
    final long previousZxid;
    /** Zxid of the last durable record; 0 while the segment holds none yet. */
    long lastZxid;
    /** End of the last durable record; the next batch is written here. */
    long dataEndBytes;

    Segment(Path path, long firstZxid, long previousZxid, long lastZxid, long dataEndBytes) {
        this.path = path;
        this.firstZxid = firstZxid;
        this.previousZxid = previousZxid;
        this.lastZxid = lastZxid;
        this.dataEndBytes = dataEndBytes;
    }

    boolean hasRecords() {
        return lastZxid != 0;
    }

    @Override
    public String toString() {
        return path.getFileName() + "[after 0x" + Long.toHexString(previousZxid) + ": 0x"
                + Long.toHexString(firstZxid) + "..0x" + Long.toHexString(lastZxid)
                + ", " + dataEndBytes + " bytes]";
    }
}
