package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.BinaryOutputArchive;

/** Apache ZooKeeper's own jute archives, used as the encoding oracle. */
final class ApacheJute {
    private ApacheJute() {
    }

    static byte[] encode(org.apache.jute.Record record) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            record.serialize(BinaryOutputArchive.getArchive(bytes), "record");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes into {@code target} and checks that Apache consumed every byte, as our reader would. */
    static <T extends org.apache.jute.Record> T decode(byte[] encoded, T target) {
        return decodeWith(encoded, in -> {
            target.deserialize(in, "record");
            return target;
        });
    }

    static <T> T decodeWith(byte[] encoded, ArchiveReader<T> reader) {
        ByteArrayInputStream stream = new ByteArrayInputStream(encoded);
        try {
            T value = reader.read(BinaryInputArchive.getArchive(stream));
            assertEquals(0, stream.available(), "Apache left bytes unread");
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    interface ArchiveReader<T> {
        T read(BinaryInputArchive in) throws IOException;
    }
}
