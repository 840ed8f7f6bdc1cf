package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The block-aligned writer under the log's direct I/O: whatever sizes the appends have, the file
 * holds exactly the bytes appended, in order, then zeros to the end of the last block; rewriting
 * the partial last block never changes the bytes already in it.
 */
class DirectWriterTest {
    private static final int BLOCK_BYTES = 4096;

    @TempDir
    Path dir;

    /** Opened with O_DIRECT where this file system allows it, else plainly (the writer's rules hold either way). */
    private FileChannel open(Path file) throws IOException {
        Set<OpenOption> options = new HashSet<>(Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE));
        if (DirectIo.blockBytes(dir) > 0) {
            Set<OpenOption> direct = new HashSet<>(options);
            direct.add(DirectIo.OPTION);
            try {
                return FileChannel.open(file, direct);
            } catch (IOException | UnsupportedOperationException refused) {
                // fall through: tmpfs and some overlay file systems refuse O_DIRECT
            }
        }
        return FileChannel.open(file, options);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void appendsOfAnySizeLeaveExactlyTheirBytesThenZerosToTheBlockEnd(long seed) throws IOException {
        Random random = new Random(seed);
        Path file = dir.resolve("segment-" + seed);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DirectWriter writer = new DirectWriter(BLOCK_BYTES);
        try (FileChannel channel = open(file)) {
            for (int i = 0; i < 200; i++) {
                int size = switch (random.nextInt(20)) {
                    case 0 -> BLOCK_BYTES - expected.size() % BLOCK_BYTES; // ends exactly on a block
                    case 1 -> 1024 * 1024 + random.nextInt(1024 * 1024); // more than one chunk
                    default -> 1 + random.nextInt(5000);
                };
                byte[] data = new byte[size];
                random.nextBytes(data);
                if (random.nextInt(8) == 0) {
                    writer.forget(); // as after a truncation: the partial block is read back from the file
                }
                // the caller's buffer may be a heap buffer at any offset
                ByteBuffer source = ByteBuffer.allocate(size + 7).position(7).slice().put(data).flip();
                writer.write(channel, source, expected.size());
                assertEquals(0, source.remaining(), "the whole append was taken");
                expected.write(data);
            }
        }
        byte[] onDisk = Files.readAllBytes(file);
        byte[] want = expected.toByteArray();
        assertEquals(writer.roundUpToBlock(want.length), onDisk.length, "the file ends at a block boundary");
        assertArrayEquals(want, Arrays.copyOf(onDisk, want.length));
        for (int i = want.length; i < onDisk.length; i++) {
            assertEquals(0, onDisk[i], "padding after the data is zeros, at byte " + i);
        }
    }

    @Test
    void extendingSetsTheLengthWithAZeroBlockAndKeepsTheData() throws IOException {
        Path file = dir.resolve("extended");
        DirectWriter writer = new DirectWriter(BLOCK_BYTES);
        byte[] data = new byte[1000];
        new Random(9).nextBytes(data);
        try (FileChannel channel = open(file)) {
            writer.write(channel, ByteBuffer.wrap(data), 0);
            writer.extendTo(channel, 16L * BLOCK_BYTES);
            assertEquals(16L * BLOCK_BYTES, channel.size());
            writer.write(channel, ByteBuffer.wrap(data), data.length);
        }
        byte[] onDisk = Files.readAllBytes(file);
        assertArrayEquals(data, Arrays.copyOfRange(onDisk, 0, 1000));
        assertArrayEquals(data, Arrays.copyOfRange(onDisk, 1000, 2000));
        assertTrue(Arrays.equals(new byte[onDisk.length - 2000], Arrays.copyOfRange(onDisk, 2000, onDisk.length)));
    }

    @Test
    void aFileShorterThanItsClaimedDataIsAnErrorNotZeros() throws IOException {
        Path file = dir.resolve("short");
        DirectWriter writer = new DirectWriter(BLOCK_BYTES);
        try (FileChannel channel = open(file)) {
            writer.write(channel, ByteBuffer.wrap(new byte[100]), 0);
            channel.truncate(0);
            writer.forget();
            assertThrows(IOException.class, () -> writer.write(channel, ByteBuffer.wrap(new byte[10]), 100));
        }
    }

    @Test
    void refusesBlockSizesDirectIoCannotUse() {
        assertThrows(IllegalArgumentException.class, () -> new DirectWriter(1000));
        assertThrows(IllegalArgumentException.class, () -> new DirectWriter(256));
    }
}
