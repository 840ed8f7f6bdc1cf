package dev.warden.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * Where to cut a verified segment so that it ends with {@code lastKeptZxid}: the end of the last
 * record at or below a zxid (the segment's previous zxid when none is).
 */
record SegmentCut(long offsetBytes, long lastKeptZxid) {

    static SegmentCut find(Segment segment, long zxid, FileChannelFactory channels) throws IOException {
        try (FileChannel channel = channels.open(segment.path, Set.of(StandardOpenOption.READ))) {
            SegmentReader reader = new SegmentReader(new ChannelInput(channel), SegmentFormat.HEADER_BYTES,
                    segment.dataEndBytes, segment.previousZxid);
            long lastKept = segment.previousZxid;
            while (true) {
                SegmentReader.Outcome outcome = reader.next();
                if (outcome == SegmentReader.Outcome.END_OF_DATA) {
                    return new SegmentCut(reader.position(), lastKept);
                }
                if (outcome != SegmentReader.Outcome.RECORD) {
                    throw new CorruptLogException(segment.path, reader.recordStart(),
                            outcome == SegmentReader.Outcome.BAD ? reader.badReason() : "zero length inside the data");
                }
                if (reader.zxid() > zxid) {
                    return new SegmentCut(reader.recordStart(), lastKept);
                }
                lastKept = reader.zxid();
            }
        }
    }
}
