package dev.warden.server.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.EpochState;
import dev.warden.storage.FaultInjectingChannels;
import dev.warden.storage.FileChannelFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EpochFilesTest {
    @TempDir
    Path dir;

    @Test
    void aNewMemberStartsAtEpochZero() throws IOException {
        assertEquals(EpochState.INITIAL, EpochFiles.defaults().load(dir));
    }

    @Test
    void storedEpochsLoadBackAsDecimalText() throws IOException {
        EpochFiles files = EpochFiles.defaults();
        files.store(dir, new EpochState(7, 5));
        assertEquals(new EpochState(7, 5), files.load(dir));
        assertEquals("7\n", Files.readString(dir.resolve("acceptedEpoch")));
        assertEquals("5\n", Files.readString(dir.resolve("currentEpoch")));
        files.store(dir, new EpochState(9, 9));
        assertEquals(new EpochState(9, 9), files.load(dir));
        try (var listing = Files.list(dir)) {
            assertEquals(2, listing.count(), "no temporary files are left behind");
        }
    }

    @Test
    void eachWriteIsFsyncedWithItsDirectory() throws IOException {
        FaultInjectingChannels channels = new FaultInjectingChannels();
        new EpochFiles(channels).store(dir, new EpochState(2, 1));
        assertEquals(4, channels.forceCount()); // two files, each then its directory
    }

    @Test
    void aCrashBetweenTheTwoWritesLeavesAValidPair() throws IOException {
        EpochFiles files = EpochFiles.defaults();
        files.store(dir, new EpochState(3, 3));
        FileChannelFactory crashOnCurrent = (path, options) -> {
            if (path.getFileName().toString().startsWith("currentEpoch")) {
                throw new IOException("simulated crash");
            }
            return FileChannelFactory.DEFAULT.open(path, options);
        };
        assertThrows(IOException.class, () -> new EpochFiles(crashOnCurrent).store(dir, new EpochState(4, 4)));
        assertEquals(new EpochState(4, 3), files.load(dir));
    }

    @Test
    void aDiskFullDuringTheSecondWriteKeepsTheOldFileIntact() throws IOException {
        EpochFiles.defaults().store(dir, new EpochState(10, 10));
        FaultInjectingChannels channels = new FaultInjectingChannels();
        channels.limitWritesTo(4); // "11\n" fits, "11\n" for the second file gets one byte
        assertThrows(IOException.class, () -> new EpochFiles(channels).store(dir, new EpochState(11, 11)));
        assertEquals(new EpochState(11, 10), EpochFiles.defaults().load(dir));
    }

    @Test
    void aCrashAfterTheFirstEverWriteReadsCurrentAsZero() throws IOException {
        Files.writeString(dir.resolve("acceptedEpoch"), "1\n");
        assertEquals(new EpochState(1, 0), EpochFiles.defaults().load(dir));
    }

    @Test
    void damagedFilesAreClearErrorsNamingTheFile() throws IOException {
        Files.writeString(dir.resolve("acceptedEpoch"), "x1\n");
        IOException garbage = assertThrows(IOException.class, () -> EpochFiles.defaults().load(dir));
        assertTrue(garbage.getMessage().contains("acceptedEpoch") && garbage.getMessage().contains("'x1'"));

        Files.writeString(dir.resolve("acceptedEpoch"), "");
        assertThrows(IOException.class, () -> EpochFiles.defaults().load(dir));

        Files.writeString(dir.resolve("acceptedEpoch"), "2");
        Files.writeString(dir.resolve("currentEpoch"), "3");
        IOException inverted = assertThrows(IOException.class, () -> EpochFiles.defaults().load(dir));
        assertTrue(inverted.getMessage().contains("above"), inverted.getMessage());

        Files.delete(dir.resolve("acceptedEpoch"));
        IOException orphan = assertThrows(IOException.class, () -> EpochFiles.defaults().load(dir));
        assertTrue(orphan.getMessage().contains("missing"), orphan.getMessage());
        assertFalse(Files.exists(dir.resolve("acceptedEpoch")));
    }
}
