package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreTest {

    @TempDir
    Path dir;

    @Test
    void writtenSnapshotReadsBackItsBody() throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        byte[] blob = LogFixtures.payload(9, 200_000);
        Path file = store.write(0x500000007L, out -> {
            out.writeUTF("tree");
            out.writeLong(42);
            out.write(blob);
        });
        assertEquals(dir.resolve("snapshot.0000000500000007"), file);
        Snapshot snapshot = store.newestValid().orElseThrow();
        assertEquals(0x500000007L, snapshot.zxid());
        try (DataInputStream in = snapshot.openBody()) {
            assertEquals("tree", in.readUTF());
            assertEquals(42, in.readLong());
            byte[] read = new byte[blob.length];
            in.readFully(read);
            assertArrayEquals(blob, read);
            assertEquals(-1, in.read(), "the trailer is not part of the body");
        }
    }

    @Test
    void emptyStoreHasNoSnapshot() throws IOException {
        assertEquals(Optional.empty(), new SnapshotStore(dir).newestValid());
    }

    @Test
    void newestValidSkipsACorruptedNewerSnapshot() throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        store.write(10, out -> out.writeInt(10));
        store.write(20, out -> out.writeInt(20));
        Path newest = store.write(30, out -> out.writeInt(30));
        byte[] bytes = Files.readAllBytes(newest);
        bytes[SnapshotFormat.HEADER_BYTES + 1] ^= 1;
        Files.write(newest, bytes);
        Snapshot snapshot = store.newestValid().orElseThrow();
        assertEquals(20, snapshot.zxid());
        try (DataInputStream in = snapshot.openBody()) {
            assertEquals(20, in.readInt());
        }
    }

    @Test
    void truncatedOrRenamedSnapshotsAreInvalid() throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        store.write(10, out -> out.writeLong(10));
        Path truncated = store.write(20, out -> out.writeLong(20));
        Files.write(truncated, java.util.Arrays.copyOf(Files.readAllBytes(truncated), 30));
        Files.copy(dir.resolve(SnapshotFormat.fileName(10)), dir.resolve(SnapshotFormat.fileName(40)));
        assertEquals(10, store.newestValid().orElseThrow().zxid(), "header zxid must match the name");
    }

    @Test
    void purgeKeepsTheNewestValidSnapshots() throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        for (long zxid = 1; zxid <= 6; zxid++) {
            long value = zxid;
            store.write(zxid, out -> out.writeLong(value));
        }
        Path corrupt = dir.resolve(SnapshotFormat.fileName(5));
        Files.write(corrupt, new byte[] {1, 2, 3});
        List<Path> deleted = store.purge(3);
        assertEquals(List.of(dir.resolve(SnapshotFormat.fileName(2)), dir.resolve(SnapshotFormat.fileName(1))),
                deleted);
        assertEquals(List.of(3L, 4L, 5L, 6L),
                store.snapshotFiles().stream().map(f -> SnapshotFormat.zxidOf(f).orElseThrow()).toList());
        assertEquals(List.of(), store.purge(10), "fewer valid than asked for: nothing goes");
        assertThrows(IllegalArgumentException.class, () -> store.purge(0));
    }

    @Test
    void leftoverTempFileIsIgnoredAndCleaned() throws IOException {
        new SnapshotStore(dir).write(5, out -> out.writeInt(5));
        // A crash during the write of snapshot 9: its temp file holds half a snapshot.
        Path leftover = dir.resolve(SnapshotFormat.fileName(9) + SnapshotFormat.TEMP_SUFFIX);
        Files.write(leftover, new byte[] {0x57, 0x53, 0x4E});
        SnapshotStore restarted = new SnapshotStore(dir);
        assertFalse(Files.exists(leftover));
        assertEquals(5, restarted.newestValid().orElseThrow().zxid());
        assertEquals(1, restarted.snapshotFiles().size());
    }

    @Test
    void failingBodyWriterLeavesNoSnapshotBehind() throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        IOException failure = assertThrows(IOException.class, () -> store.write(7, out -> {
            out.writeInt(1);
            throw new IOException("tree walk failed");
        }));
        assertEquals("tree walk failed", failure.getMessage());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void diskFullDuringSnapshotLeavesNoSnapshotBehind() throws IOException {
        FaultInjectingChannels disk = new FaultInjectingChannels();
        SnapshotStore store = new SnapshotStore(dir, disk);
        store.write(1, out -> out.writeInt(1));
        disk.limitWritesTo(1000);
        assertThrows(IOException.class, () -> store.write(2, out -> out.write(new byte[5000])));
        assertEquals(1, store.newestValid().orElseThrow().zxid());
        assertEquals(1, store.snapshotFiles().size());
        disk.allowWrites();
        store.write(2, out -> out.write(new byte[5000]));
        assertEquals(2, store.newestValid().orElseThrow().zxid());
    }

    @Test
    void bodyWriterClosingTheStreamDoesNotBreakTheSnapshot() throws IOException {
        SnapshotStore store = new SnapshotStore(dir);
        store.write(3, out -> {
            out.writeInt(3);
            out.close();
        });
        Snapshot snapshot = store.newestValid().orElseThrow();
        try (DataInputStream in = snapshot.openBody()) {
            assertEquals(3, in.readInt());
        }
        assertTrue(Files.size(snapshot.file()) > SnapshotFormat.HEADER_BYTES + SnapshotFormat.TRAILER_BYTES);
    }

    @Test
    void aGzipStoreWritesCompressedBodiesEveryStoreReads() throws IOException {
        SnapshotStore gzip = new SnapshotStore(dir, FileChannelFactory.DEFAULT, SnapshotCompression.GZIP);
        byte[] repetitive = new byte[200_000];
        java.util.Arrays.fill(repetitive, (byte) 'w');
        gzip.write(9, out -> {
            out.write(repetitive);
            out.writeLong(0x1234L); // the tail a body keeps for reading without parsing
            out.close();
        });
        Snapshot snapshot = new SnapshotStore(dir).newestValid().orElseThrow();
        assertTrue(snapshot.isCompressed());
        assertTrue(Files.size(snapshot.file()) < 10_000, Files.size(snapshot.file()) + " bytes");
        try (DataInputStream in = snapshot.openBody()) {
            byte[] read = new byte[repetitive.length];
            in.readFully(read);
            assertTrue(java.util.Arrays.equals(repetitive, read));
            assertEquals(0x1234L, in.readLong());
            assertEquals(-1, in.read());
        }
        assertEquals(0x1234L, java.nio.ByteBuffer.wrap(snapshot.readBodyTail(Long.BYTES)).getLong());
    }

    @Test
    void aDamagedCompressedSnapshotFailsItsChecksum() throws IOException {
        new SnapshotStore(dir, FileChannelFactory.DEFAULT, SnapshotCompression.GZIP).write(4, out -> out.writeInt(4));
        Path file = dir.resolve(SnapshotFormat.fileName(4));
        byte[] bytes = Files.readAllBytes(file);
        bytes[SnapshotFormat.HEADER_BYTES + 3] ^= 1;
        Files.write(file, bytes);
        assertTrue(new SnapshotStore(dir).newestValid().isEmpty());
    }
}
