package dev.warden.cli.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.storage.FaultInjectingChannels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnsyncedWriteJournalTest {
    @TempDir
    Path dir;

    private static void write(FileChannel channel, long position, String text) throws IOException {
        channel.write(ByteBuffer.wrap(text.getBytes()), position);
    }

    @Test
    void undoRestoresEachFileToItsLastFsyncAndLeavesSyncedFilesAlone() throws IOException {
        FaultInjectingChannels disk = new FaultInjectingChannels();
        Path journalFile = dir.resolve("journal");
        UnsyncedWriteJournal journal = new UnsyncedWriteJournal(journalFile);
        disk.hookWrites((file, position, bytes) -> journal.beforeWrite(file, position, bytes.remaining()));
        disk.hookForces(new FaultInjectingChannels.ForceHook() {
            @Override
            public void beforeForce(Path file) {
            }

            @Override
            public void afterForce(Path file) {
                try {
                    journal.afterForce(file);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        Path log = dir.resolve("log");
        Path synced = dir.resolve("synced");
        Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        try (FileChannel a = disk.open(log, options); FileChannel b = disk.open(synced, options)) {
            write(a, 0, "durable.");
            a.force(false);
            write(a, 3, "XY");          // overwrites part of the durable bytes
            write(a, 8, "lost tail");   // grows the file
            write(b, 0, "kept");
            b.force(false);
        }
        journal.close();
        assertEquals(2, UnsyncedWriteJournal.undo(journalFile), "the two writes after the log's fsync");
        assertArrayEquals("durable.".getBytes(), Files.readAllBytes(log));
        assertArrayEquals("kept".getBytes(), Files.readAllBytes(synced));
        assertEquals(0, UnsyncedWriteJournal.undo(journalFile), "the journal is emptied by an undo");
    }
}
