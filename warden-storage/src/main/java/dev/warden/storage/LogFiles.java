package dev.warden.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a log directory without changing it, for tools that look at the log of a stopped (or
 * running) server. {@link LogScan} verifies the same way but also cuts a torn tail and deletes an
 * empty newest segment, as a starting server must; this class only reports what it finds.
 */
public final class LogFiles {

    /**
     * One segment file as found.
     *
     * @param file         the segment file
     * @param firstZxid    the zxid its name gives
     * @param previousZxid the zxid its header says precedes its first record
     * @param recordCount  whole, verified records before any damage or torn tail
     * @param lastZxid     the last of them (the previous zxid when there are none)
     * @param dataEndBytes where the last whole record ends
     * @param tornTail     why the bytes after {@code dataEndBytes} are a torn tail (null if there is none);
     *                     a starting server cuts them off
     * @param damage       damage found in the segment (null if none)
     */
    public record Segment(Path file, long firstZxid, long previousZxid, int recordCount, long lastZxid,
                          long dataEndBytes, String tornTail, LogScan.Damage damage) {
    }

    /** A record and the byte offset of its start in its segment file. */
    public record PlacedRecord(long offsetBytes, long zxid, byte[] payload) {
    }

    /** Receives records in order; returns false to stop reading. */
    @FunctionalInterface
    public interface RecordVisitor {
        boolean visit(PlacedRecord record) throws IOException;
    }

    private LogFiles() {
    }

    /** True if {@code file}'s name is a log segment's ({@code log.<16 hex digits>}). */
    public static boolean isSegmentName(Path file) {
        return SegmentFormat.firstZxidOf(file).isPresent();
    }

    /** Every segment of {@code dir}, oldest first, verified as a starting server would, read only. */
    public static List<Segment> inspect(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path file : stream) {
                if (isSegmentName(file) && Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        }
        files.sort(Comparator.comparingLong(file -> SegmentFormat.firstZxidOf(file).orElseThrow()));
        List<Segment> segments = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            segments.add(inspectFile(files.get(i), i == files.size() - 1));
        }
        return segments;
    }

    /**
     * One segment file; {@code newest} says whether it ends the log, which decides whether a bad
     * record at its end is a torn tail or damage (docs/STORAGE.md, "Torn tail or corruption?").
     */
    public static Segment inspectFile(Path file, boolean newest) throws IOException {
        OptionalLong firstZxid = SegmentFormat.firstZxidOf(file);
        if (firstZxid.isEmpty()) {
            throw new IOException(file + " is not a log segment: its name is not log.<16 hex digits>");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            SegmentScanner.Result result = SegmentScanner.scan(file, channel, firstZxid.getAsLong(), newest);
            return new Segment(file, firstZxid.getAsLong(), result.previousZxid(), result.recordCount(),
                    result.lastZxid(), result.dataEndBytes(), result.tornTail() ? result.tornReason() : null,
                    result.damage());
        }
    }

    /** Reads the whole, verified records of a segment, in order, up to its damage or torn tail. */
    public static void readRecords(Segment segment, RecordVisitor visitor) throws IOException {
        if (segment.recordCount() == 0) {
            return;
        }
        try (FileChannel channel = FileChannel.open(segment.file(), Set.of(StandardOpenOption.READ))) {
            SegmentReader reader = new SegmentReader(new ChannelInput(channel), SegmentFormat.HEADER_BYTES,
                    segment.dataEndBytes(), segment.previousZxid());
            for (int i = 0; i < segment.recordCount(); i++) {
                if (reader.next() != SegmentReader.Outcome.RECORD) {
                    throw new IOException(segment.file() + " changed while it was read (record " + i + ")");
                }
                if (!visitor.visit(new PlacedRecord(reader.recordStart(), reader.zxid(), reader.payload()))) {
                    return;
                }
            }
        }
    }
}
