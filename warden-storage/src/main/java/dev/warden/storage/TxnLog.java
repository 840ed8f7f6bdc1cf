package dev.warden.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction log: opaque payloads keyed by strictly increasing zxids, stored in segment
 * files named {@code log.<first zxid in 16 hex digits>} (layout in {@link SegmentFormat}).
 *
 * <p>Appends are buffered; {@link #flush()} writes the whole batch with one write and one
 * {@code force(false)}, which is the group-commit boundary. Segments are preallocated in steps,
 * so a zero-filled region after the last record is the normal end of the log.
 *
 * <p><b>Torn tail versus corruption.</b> When the log is opened every segment is verified
 * record by record. The first record that is not whole and valid (partial length field,
 * impossible length, a length running past the end of the file, CRC32C mismatch, zxid not
 * above its predecessor, or a zero length field followed by non-zero bytes) is judged so:
 * <ul>
 *   <li>in any segment but the newest, it is corruption;</li>
 *   <li>in the newest segment, it is corruption if a valid record (verified CRC, zxid above the
 *       last good one) starts anywhere after it, because then durable data lies beyond it;</li>
 *   <li>otherwise it is a torn tail, the remains of a write that never completed its flush: the
 *       file is cut at the end of the last whole record and a WARN names the file and offset.</li>
 * </ul>
 * Corruption throws {@link CorruptLogException} with the file and the byte offset of the bad
 * record; the member must then recover from its peers (see docs/STORAGE.md). A known limit of
 * the rule: a torn record whose payload happens to embed a well-formed record with a higher
 * zxid is reported as corruption, failing safe rather than silently.
 *
 * <p>Methods are synchronized (a roll only in part; see {@link #rollSegment}); one thread is
 * expected to append and flush, others may read with {@link #readAfter(long)}, which sees only
 * flushed records.
 */
public final class TxnLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TxnLog.class);

    private final Path dir;
    private final TxnLogOptions options;
    private final List<Segment> segments;
    private final BatchBuffer pending = new BatchBuffer();
    /** The newest segment, open for appends; null before the first flush or after a roll. */
    private ActiveSegment active;
    /** The segment a roll switched away from while it is given back outside the lock; else null. */
    private ActiveSegment retiring;
    // Volatile so other threads can poll them without waiting behind an fsync.
    private volatile long lastAppendedZxid;
    private volatile long lastDurableZxid;
    private boolean failed;
    private boolean closed;
    /** True while the directory holds a {@link LogBase} file, which the next new segment makes stale. */
    private boolean baseFilePresent;
    private final FlushMonitor flushMonitor;

    private TxnLog(Path dir, TxnLogOptions options, List<Segment> segments, long emptyStartZxid,
                   boolean baseFilePresent) throws IOException {
        this.flushMonitor = new FlushMonitor(dir, options);
        this.dir = dir;
        this.options = options;
        this.segments = segments;
        this.baseFilePresent = baseFilePresent;
        if (segments.isEmpty()) {
            lastDurableZxid = emptyStartZxid;
            lastAppendedZxid = emptyStartZxid;
        } else {
            Segment last = segments.get(segments.size() - 1);
            active = ActiveSegment.reopen(last, options);
            lastDurableZxid = last.lastZxid;
            lastAppendedZxid = last.lastZxid;
            if (baseFilePresent) {
                // stale: left by a crash just after the first segment of a restarted log was created
                dropBaseFile();
            }
        }
    }

    /**
     * Opens (creating the directory if needed) and scans every segment; see the class comment
     * for how a damaged end is told apart from corruption. Any damage is a
     * {@link CorruptLogException}; to decide first which damage matters, scan with
     * {@link LogScan#of} and open with {@link #open(LogScan)}.
     */
    public static TxnLog open(Path dir, TxnLogOptions options) throws IOException {
        return open(LogScan.of(dir, options));
    }

    /**
     * Opens a scanned log. Every segment left in the scan must be sound (move damaged ones aside
     * first, {@link LogScan#moveAside}); the first damaged one is a {@link CorruptLogException}.
     */
    public static TxnLog open(LogScan scan) throws IOException {
        CorruptLogException damage = scan.firstDamage();
        if (damage != null) {
            throw damage;
        }
        List<Segment> segments = new ArrayList<>();
        for (LogScan.SegmentReport report : scan.segments()) {
            segments.add(new Segment(report.file(), report.firstZxid(), report.previousZxid(), report.lastZxid(),
                    report.dataEndBytes()));
        }
        return new TxnLog(scan.dir(), scan.options(), segments, scan.startZxid(), scan.baseZxid().isPresent());
    }

    /** The largest payload one record holds (64 MiB): a transaction larger than this cannot be logged. */
    public static int maxPayloadBytes() {
        return SegmentFormat.MAX_PAYLOAD_BYTES;
    }

    /** Buffers one record; zxid must be above {@link #lastAppendedZxid()}. */
    public synchronized void append(long zxid, byte[] payload) throws IOException {
        checkWritable();
        if (zxid <= lastAppendedZxid) {
            throw new IllegalArgumentException("zxid 0x" + Long.toHexString(zxid)
                    + " must be above the last appended 0x" + Long.toHexString(lastAppendedZxid));
        }
        if (payload.length > SegmentFormat.MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payload of " + payload.length + " bytes exceeds the limit of "
                    + SegmentFormat.MAX_PAYLOAD_BYTES);
        }
        pending.add(zxid, payload);
        lastAppendedZxid = zxid;
    }

    /**
     * Writes everything appended and, if {@link TxnLogOptions#forceSync()}, fsyncs it. After it
     * returns every appended record is durable. If it throws, call {@link #rollbackToDurable()}
     * before appending again.
     */
    public synchronized void flush() throws IOException {
        checkWritable();
        if (pending.isEmpty()) {
            return;
        }
        failed = true; // cleared only if the whole batch is durable
        boolean created = false;
        if (active != null && active.segment().dataEndBytes >= options.segmentMaxBytes()) {
            retireActive();
        }
        if (active == null) {
            // Everything before this batch is durable, so the new segment follows the last durable record.
            active = ActiveSegment.create(dir, pending.firstZxid(), lastDurableZxid, options);
            segments.add(active.segment());
            created = true;
        }
        long batchBytes = pending.sizeBytes();
        flushMonitor.batchWritten(pending);
        long dataEnd = active.write(pending.contents());
        if (options.forceSync()) {
            long startNs = System.nanoTime();
            active.force();
            if (created) {
                Directories.fsync(dir, options.channels());
            }
            flushMonitor.fsyncDone(startNs, System.nanoTime(), pending);
        }
        active.commit(dataEnd, pending.lastZxid());
        lastDurableZxid = pending.lastZxid();
        pending.clear();
        failed = false;
        if (created && baseFilePresent) {
            dropBaseFile();
        }
        active.zeroAheadAfter(batchBytes);
    }

    /** The base file says where an empty log starts; a durable segment says it now. */
    private void dropBaseFile() throws IOException {
        LogBase.delete(dir);
        baseFilePresent = false;
    }

    /**
     * The zxid the log's records follow: it holds every record after this one up to
     * {@link #lastDurableZxid()}. That is the first segment's previous zxid, or, while the log
     * holds no segment, where it was restarted or truncated to (0 for a new log).
     */
    public synchronized long startZxid() {
        return segments.isEmpty() ? lastDurableZxid : segments.get(0).previousZxid;
    }

    /** How long this log's flushes spent in fsync; see {@link TxnLogOptions#slowFsyncWarningMs()}. */
    public FsyncStats fsyncStats() {
        return flushMonitor.fsyncStats();
    }

    /**
     * Records written per flush (the group commit's batch size, ZooKeeper's
     * sync_processor_batch_size), counted for every flush that wrote something.
     */
    public ValueSummary batchRecords() {
        return flushMonitor.batchRecords();
    }

    public long lastAppendedZxid() {
        return lastAppendedZxid;
    }

    /** Highest zxid covered by a successful {@link #flush()}; 0 when none. */
    public long lastDurableZxid() {
        return lastDurableZxid;
    }

    /**
     * After a failed append or flush (disk full, I/O error): drops every record that is not
     * durable, from memory and from the file, so the log ends exactly at
     * {@link #lastDurableZxid()}. Only truncates and deletes, so it works on a full disk.
     */
    public synchronized void rollbackToDurable() throws IOException {
        checkOpen();
        pending.clear();
        lastAppendedZxid = lastDurableZxid;
        if (active != null) {
            Segment segment = active.segment();
            if (segment.hasRecords()) {
                active.truncate(segment.dataEndBytes);
            } else {
                // Created by the failed flush: nothing in it was ever durable.
                closeAfterFailure(active);
                active = null;
                segments.remove(segment);
                Files.deleteIfExists(segment.path);
                Directories.fsync(dir, options.channels());
            }
        }
        failed = false;
    }

    /**
     * Flushed records with zxid above {@code afterZxid}, in order, across segments. The iterator
     * sees the log as it was when this was called; flushes after that are not included, and a
     * later {@link #truncateAfter} or {@link #purgeUpTo} may make it fail. Close it when done.
     */
    public synchronized LogIterator readAfter(long afterZxid) throws IOException {
        checkOpen();
        List<SegmentsIterator.Source> sources = new ArrayList<>();
        for (Segment segment : segments) {
            if (segment.hasRecords() && segment.lastZxid > afterZxid) {
                sources.add(new SegmentsIterator.Source(segment.path, segment.firstZxid, segment.dataEndBytes));
            }
        }
        return new SegmentsIterator(sources, afterZxid, options.channels());
    }

    /**
     * Removes every record with zxid above {@code zxid}, buffered or durable. Later segments go
     * first and the cut segment last, so a crash part way leaves a prefix of the old log.
     */
    public synchronized void truncateAfter(long zxid) throws IOException {
        checkWritable();
        settleRetiring();
        if (zxid >= lastDurableZxid) {
            pending.truncateAfter(zxid);
            lastAppendedZxid = pending.isEmpty() ? lastDurableZxid : pending.lastZxid();
            return;
        }
        pending.clear();
        long start = startZxid();
        boolean emptiesLog = !segments.isEmpty() && segments.get(0).firstZxid > zxid;
        if (emptiesLog) {
            // Recorded before the segments go, so a crash part way leaves a log that says where it starts.
            LogBase.write(dir, start, options.channels());
            baseFilePresent = true;
        }
        boolean deleted = false;
        while (!segments.isEmpty() && segments.get(segments.size() - 1).firstZxid > zxid) {
            Segment doomed = segments.remove(segments.size() - 1);
            if (active != null && active.segment() == doomed) {
                active.close();
                active = null;
            }
            Files.deleteIfExists(doomed.path);
            deleted = true;
        }
        if (deleted) {
            Directories.fsync(dir, options.channels());
        }
        long lastKept = start;
        if (!segments.isEmpty()) {
            Segment last = segments.get(segments.size() - 1);
            if (active == null) {
                active = ActiveSegment.reopen(last, options);
            }
            SegmentCut cut = SegmentCut.find(last, zxid, options.channels());
            active.truncate(cut.offsetBytes());
            active.commit(cut.offsetBytes(), cut.lastKeptZxid());
            lastKept = cut.lastKeptZxid();
        }
        lastDurableZxid = lastKept;
        lastAppendedZxid = lastKept;
    }

    /**
     * Drops the whole log because state is being replaced by a snapshot taken at
     * {@code snapshotZxid} (a SNAP from the leader): every segment goes, newest first, then the
     * directory is fsynced. The next append may use any zxid above {@code snapshotZxid}, and
     * until then {@link #lastDurableZxid()} and {@link #lastAppendedZxid()} report it. The caller
     * must have stored the snapshot durably first. The base file records {@code snapshotZxid}
     * before any segment goes, so a log left empty says it continues from that snapshot (and one
     * whose segments were lost does not). Also clears a failed state.
     */
    public synchronized void restartAfter(long snapshotZxid) throws IOException {
        restartAfter(snapshotZxid, null);
    }

    /**
     * As {@link #restartAfter(long)}, but the segments are moved into {@code setAsideInto}
     * (created if needed) instead of deleted, when that is not null: a history given up because
     * it could not be vouched for is kept for whoever wants to look at it.
     */
    public synchronized void restartAfter(long snapshotZxid, Path setAsideInto) throws IOException {
        checkOpen();
        if (snapshotZxid < 0) {
            throw new IllegalArgumentException("negative zxid " + snapshotZxid);
        }
        pending.clear();
        settleRetiring();
        if (active != null) {
            closeAfterFailure(active);
            active = null;
        }
        // Recorded before the segments go: an empty log must be told apart from a lost one.
        LogBase.write(dir, snapshotZxid, options.channels());
        baseFilePresent = true;
        SegmentSetAside.removeAll(segments, dir, setAsideInto, options.channels());
        lastDurableZxid = snapshotZxid;
        lastAppendedZxid = snapshotZxid;
        failed = false;
        LOG.info("Log {} restarted after zxid 0x{}", dir, Long.toHexString(snapshotZxid));
    }

    /** First and last durable zxid of one segment file, and the zxid its first record follows. */
    public record SegmentRange(long previousZxid, long firstZxid, long lastZxid) {
    }

    /** The durable zxid range of every segment that holds a record, oldest first; cheap, kept in memory. */
    public synchronized List<SegmentRange> segmentRanges() {
        List<SegmentRange> ranges = new ArrayList<>(segments.size());
        for (Segment segment : segments) {
            if (segment.hasRecords()) {
                ranges.add(new SegmentRange(segment.previousZxid, segment.firstZxid, segment.lastZxid));
            }
        }
        return ranges;
    }

    /** True if a durable record has exactly this zxid (reads at most one segment). */
    public synchronized boolean holdsRecord(long zxid) throws IOException {
        checkOpen();
        for (Segment segment : segments) {
            if (!segment.hasRecords() || zxid < segment.firstZxid || zxid > segment.lastZxid) {
                continue;
            }
            if (zxid == segment.firstZxid || zxid == segment.lastZxid) {
                return true;
            }
            return SegmentCut.find(segment, zxid, options.channels()).lastKeptZxid() == zxid;
        }
        return false;
    }

    /**
     * Closes the current segment; the next flush starts a new one. Buffered records go there.
     *
     * <p>Only the switch holds the log's lock. Giving back the old segment's preallocated space
     * (a truncate and an fsync, 0.5 to 5 ms on the development VM) runs after it on the calling
     * thread, so a snapshot's roll does not hold up the flushes that every write waits for. A
     * crash before that finishes leaves the old segment with a zero tail, which recovery accepts.
     * Whatever else would touch the old segment's file first waits for it ({@link #settleRetiring}).
     */
    public void rollSegment() throws IOException {
        ActiveSegment rolled;
        synchronized (this) {
            checkWritable();
            if (active == null) {
                return;
            }
            settleRetiring();
            rolled = active;
            active = null;
            retiring = rolled;
        }
        try {
            rolled.retire();
        } finally {
            synchronized (this) {
                if (retiring == rolled) {
                    retiring = null;
                }
            }
        }
    }

    /**
     * Finishes retiring the segment a {@link #rollSegment} switched away from, if that is still
     * under way (waiting for it) or not yet started (doing it here). Called, with this log's lock
     * held, before anything that may truncate, delete, reopen or close that segment's file: a
     * retire that ran later would cut the file back to its old end.
     */
    private void settleRetiring() throws IOException {
        ActiveSegment pendingRetire = retiring;
        if (pendingRetire != null) {
            retiring = null;
            pendingRetire.retire();
        }
    }

    /**
     * Deletes whole segments whose records are all at or below {@code zxid}, keeping the
     * segment that holds the last record at or below it, so replay from a snapshot taken at
     * {@code zxid} stays possible. The newest segment is never deleted.
     */
    public synchronized void purgeUpTo(long zxid) throws IOException {
        checkOpen();
        settleRetiring();
        boolean deleted = false;
        while (segments.size() > 1 && segments.get(1).firstZxid <= zxid) {
            Segment doomed = segments.remove(0);
            Files.deleteIfExists(doomed.path);
            deleted = true;
            LOG.info("Purged log segment {}", doomed);
        }
        if (deleted) {
            Directories.fsync(dir, options.channels());
        }
    }

    /** The log's directory. */
    public Path dir() {
        return dir;
    }

    public synchronized List<Path> segmentFiles() {
        return segments.stream().map(segment -> segment.path).toList();
    }

    /** Flushes, then closes. A log whose flush failed is closed without flushing. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (!failed) {
                flush();
            }
        } finally {
            closed = true;
            try {
                settleRetiring();
            } finally {
                if (active != null) {
                    active.close();
                    active = null;
                }
            }
        }
    }

    private void retireActive() throws IOException {
        ActiveSegment retiring = active;
        active = null;
        retiring.retire();
    }

    private void closeAfterFailure(ActiveSegment segment) {
        try {
            segment.close();
        } catch (IOException e) {
            LOG.warn("Closing {} after a failed flush failed too", segment.segment(), e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("log " + dir + " is closed");
        }
    }

    private void checkWritable() {
        checkOpen();
        if (failed) {
            throw new IllegalStateException("a flush of " + dir + " failed; call rollbackToDurable() first");
        }
    }
}
