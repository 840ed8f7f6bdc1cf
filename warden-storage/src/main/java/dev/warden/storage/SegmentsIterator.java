package dev.warden.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Reads records above a zxid from a fixed list of segments, each up to the data end it had
 * when the iterator was made, so appends running beside it are not seen half-written.
 */
final class SegmentsIterator implements LogIterator {

    /** One segment to read: the file, its first zxid and how many bytes of it are durable. */
    record Source(Path path, long firstZxid, long dataEndBytes) {
    }

    private final List<Source> sources;
    private final long afterZxid;
    private final FileChannelFactory channels;
    private int nextSource;
    private FileChannel channel;
    private SegmentReader reader;
    private Source current;
    private long previousZxid;
    private LogRecord next;

    SegmentsIterator(List<Source> sources, long afterZxid, FileChannelFactory channels) {
        this.sources = List.copyOf(sources);
        this.afterZxid = afterZxid;
        this.channels = channels;
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            try {
                next = advance();
            } catch (IOException e) {
                close();
                throw new UncheckedIOException(e);
            }
        }
        return next != null;
    }

    @Override
    public LogRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        LogRecord result = next;
        next = null;
        return result;
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                channel = null;
                reader = null;
            }
        }
    }

    private LogRecord advance() throws IOException {
        while (true) {
            if (reader == null && !openNextSource()) {
                return null;
            }
            SegmentReader.Outcome outcome = reader.next();
            if (outcome == SegmentReader.Outcome.RECORD) {
                previousZxid = reader.zxid();
                if (reader.zxid() > afterZxid) {
                    return new LogRecord(reader.zxid(), reader.payload());
                }
            } else if (outcome == SegmentReader.Outcome.END_OF_DATA) {
                close();
            } else {
                throw new CorruptLogException(current.path(), reader.recordStart(),
                        outcome == SegmentReader.Outcome.BAD ? reader.badReason() : "zero length inside the data");
            }
        }
    }

    private boolean openNextSource() throws IOException {
        if (nextSource >= sources.size()) {
            return false;
        }
        current = sources.get(nextSource++);
        channel = channels.open(current.path(), Set.of(StandardOpenOption.READ));
        reader = new SegmentReader(new ChannelInput(channel), SegmentFormat.HEADER_BYTES,
                current.dataEndBytes(), previousZxid);
        return true;
    }
}
