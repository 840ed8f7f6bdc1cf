package dev.warden.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a log directory holds, verified record by record, before the log is opened: each
 * segment's place in the history (the zxid it follows, its first and last zxids) and any damage.
 *
 * <p>A torn tail of the newest segment is cut off here, and a newest segment whose header never
 * reached the disk is deleted: both are the remains of a write that was never acknowledged (the
 * rule is on {@link TxnLog}). Damage is only reported. The server decides, knowing the snapshot
 * it recovers from, whether a damaged segment is needed (then it refuses to start, or an ensemble
 * member resynchronizes) or lies wholly before that snapshot (then it is moved aside), and then
 * opens the log with {@link TxnLog#open(LogScan)}.
 */
public final class LogScan {
    private static final Logger LOG = LoggerFactory.getLogger(LogScan.class);

    /** Corruption in a segment: where the first bad byte or record starts, and what is wrong. */
    public record Damage(long offsetBytes, String reason) {
    }

    /**
     * One segment file as verified.
     *
     * @param previousZxid the zxid its header says its first record follows (0: the log starts there)
     * @param firstZxid    its first record's zxid (from the file name)
     * @param lastZxid     its last whole, verified record's zxid (before any damage)
     * @param dataEndBytes the end of that record
     * @param damage       null when the whole segment verified
     */
    public record SegmentReport(Path file, long previousZxid, long firstZxid, long lastZxid, long dataEndBytes,
                                Damage damage) {
        public boolean isSound() {
            return damage == null;
        }

        /** The file, the zxids it covers and, if damaged, where and how. */
        public String describe() {
            String range = "follows 0x" + Long.toHexString(previousZxid) + ", holds 0x" + Long.toHexString(firstZxid)
                    + " to 0x" + Long.toHexString(lastZxid);
            return file + " (" + (isSound() ? range : "damaged at byte offset " + damage.offsetBytes() + ": "
                    + damage.reason()) + ")";
        }

        CorruptLogException toException() {
            return new CorruptLogException(file, damage.offsetBytes(), damage.reason());
        }
    }

    private final Path dir;
    private final TxnLogOptions options;
    private final List<SegmentReport> segments;
    private final OptionalLong baseZxid;

    private LogScan(Path dir, TxnLogOptions options, List<SegmentReport> segments, OptionalLong baseZxid) {
        this.dir = dir;
        this.options = options;
        this.segments = List.copyOf(segments);
        this.baseZxid = baseZxid;
    }

    /** Verifies every segment in {@code dir} (creating the directory if needed). */
    public static LogScan of(Path dir, TxnLogOptions options) throws IOException {
        Files.createDirectories(dir);
        List<Path> files = listSegments(dir);
        List<SegmentReport> reports = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            boolean newest = i == files.size() - 1;
            long firstZxid = SegmentFormat.firstZxidOf(file).orElseThrow();
            SegmentScanner.Result result;
            try (FileChannel channel = options.channels().open(file, Set.of(StandardOpenOption.READ))) {
                result = SegmentScanner.scan(file, channel, firstZxid, newest);
            }
            if (result.damage() == null && result.recordCount() == 0) {
                LOG.warn("Deleting log segment {}: it holds no whole record ({})", file,
                        result.tornTail() ? result.tornReason() : "only a header");
                Files.delete(file);
                Directories.fsync(dir, options.channels());
                continue;
            }
            if (result.tornTail()) {
                LOG.warn("Log segment {} has a torn tail at byte offset {} ({}); cutting it off after zxid 0x{}",
                        file, result.dataEndBytes(), result.tornReason(), Long.toHexString(result.lastZxid()));
                cut(file, result.dataEndBytes(), options);
            }
            reports.add(new SegmentReport(file, result.previousZxid(), firstZxid, result.lastZxid(),
                    result.dataEndBytes(), result.damage()));
        }
        return new LogScan(dir, options, reports, LogBase.read(dir));
    }

    public Path dir() {
        return dir;
    }

    /** Every segment, oldest first. */
    public List<SegmentReport> segments() {
        return segments;
    }

    /**
     * Where the log continues from while it holds no segment, as recorded when it was restarted
     * after a snapshot or truncated to nothing; empty if no such record exists.
     */
    public OptionalLong baseZxid() {
        return baseZxid;
    }

    /**
     * The zxid the log's records follow: the first segment's previous zxid, or, with no segment,
     * the base (0 for a log that was never restarted).
     */
    public long startZxid() {
        return segments.isEmpty() ? baseZxid.orElse(0) : segments.get(0).previousZxid();
    }

    /** The first damaged segment's damage as an exception, or null when every segment verified. */
    public CorruptLogException firstDamage() {
        for (SegmentReport report : segments) {
            if (!report.isSound()) {
                return report.toException();
            }
        }
        return null;
    }

    /** True if a sound segment holds a record with exactly this zxid (reads at most one segment). */
    public boolean holdsRecord(long zxid) throws IOException {
        for (SegmentReport report : segments) {
            if (report.firstZxid() > zxid || report.lastZxid() < zxid) {
                continue;
            }
            if (!report.isSound()) {
                return false;
            }
            if (zxid == report.firstZxid() || zxid == report.lastZxid()) {
                return true;
            }
            Segment segment = new Segment(report.file(), report.firstZxid(), report.previousZxid(),
                    report.lastZxid(), report.dataEndBytes());
            return SegmentCut.find(segment, zxid, options.channels()).lastKeptZxid() == zxid;
        }
        return false;
    }

    /**
     * Moves the given segments' files into {@code intoDir} (created if needed), keeping their
     * names, and returns the scan of what stays. Nothing is deleted.
     */
    public LogScan moveAside(Collection<SegmentReport> moved, Path intoDir) throws IOException {
        if (moved.isEmpty()) {
            return this;
        }
        Files.createDirectories(intoDir);
        Set<Path> movedFiles = new HashSet<>();
        for (SegmentReport report : moved) {
            Files.move(report.file(), intoDir.resolve(report.file().getFileName()), StandardCopyOption.ATOMIC_MOVE);
            movedFiles.add(report.file());
        }
        Directories.fsync(intoDir, options.channels());
        Directories.fsync(dir, options.channels());
        List<SegmentReport> kept = new ArrayList<>();
        for (SegmentReport report : segments) {
            if (!movedFiles.contains(report.file())) {
                kept.add(report);
            }
        }
        return new LogScan(dir, options, kept, baseZxid);
    }

    TxnLogOptions options() {
        return options;
    }

    private static void cut(Path file, long sizeBytes, TxnLogOptions options) throws IOException {
        try (FileChannel channel = options.channels().open(file, Set.of(StandardOpenOption.WRITE))) {
            channel.truncate(sizeBytes);
            channel.force(false);
        }
    }

    private static List<Path> listSegments(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path file : stream) {
                OptionalLong firstZxid = SegmentFormat.firstZxidOf(file);
                if (firstZxid.isPresent() && Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        }
        files.sort(Comparator.comparingLong(file -> SegmentFormat.firstZxidOf(file).orElseThrow()));
        return files;
    }
}
