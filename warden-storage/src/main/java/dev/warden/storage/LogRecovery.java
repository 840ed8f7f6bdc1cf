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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings a log directory to a consistent state on open, and finds cut points in a segment. */
final class LogRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

    /** Where to cut a segment so that it ends with {@code lastKeptZxid}. */
    record Cut(long offsetBytes, long lastKeptZxid) {
    }

    private LogRecovery() {
    }

    /** Verifies every segment, cuts a torn tail off the newest, and lists the segments. */
    static List<Segment> recover(Path dir, TxnLogOptions options) throws IOException {
        List<Path> files = listSegments(dir);
        List<Segment> segments = new ArrayList<>();
        long previousZxid = 0;
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            boolean last = i == files.size() - 1;
            long firstZxid = SegmentFormat.firstZxidOf(file).orElseThrow();
            SegmentScanner.Result result;
            try (FileChannel channel = options.channels().open(file, Set.of(StandardOpenOption.READ))) {
                result = SegmentScanner.scan(file, channel, firstZxid, previousZxid, last);
            }
            if (result.recordCount() == 0) {
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
            segments.add(new Segment(file, firstZxid, result.lastZxid(), result.dataEndBytes()));
            previousZxid = result.lastZxid();
        }
        return segments;
    }

    /** Finds the end of the last record at or below {@code zxid} in a verified segment. */
    static Cut findCut(Segment segment, long zxid, FileChannelFactory channels) throws IOException {
        try (FileChannel channel = channels.open(segment.path, Set.of(StandardOpenOption.READ))) {
            SegmentReader reader = new SegmentReader(new ChannelInput(channel), SegmentFormat.HEADER_BYTES,
                    segment.dataEndBytes, 0);
            long lastKept = 0;
            while (true) {
                SegmentReader.Outcome outcome = reader.next();
                if (outcome == SegmentReader.Outcome.END_OF_DATA) {
                    return new Cut(reader.position(), lastKept);
                }
                if (outcome != SegmentReader.Outcome.RECORD) {
                    throw new CorruptLogException(segment.path, reader.recordStart(),
                            outcome == SegmentReader.Outcome.BAD ? reader.badReason() : "zero length inside the data");
                }
                if (reader.zxid() > zxid) {
                    return new Cut(reader.recordStart(), lastKept);
                }
                lastKept = reader.zxid();
            }
        }
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
