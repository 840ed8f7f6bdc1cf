package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.readAll;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.smallSegments;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log and the snapshot store on a file system other than the operating system's (Jimfs, as
 * under an in-memory test server): everything works with fsync and direct I/O asked for, no
 * directory is opened for an fsync (such a provider cannot open one) and no channel asks for
 * {@code O_DIRECT}. On the operating system's file system directories are still fsynced.
 */
class InMemoryFileSystemTest {
    private FileSystem memory;
    private final List<Opened> opened = new CopyOnWriteArrayList<>();

    private record Opened(Path path, Set<? extends OpenOption> options) {
    }

    /** Opens as production does, remembering what was opened with which options. */
    private final FileChannelFactory recording = (path, options) -> {
        opened.add(new Opened(path, Set.copyOf(options)));
        return FileChannel.open(path, options);
    };

    @BeforeEach
    void createMemoryFileSystem() {
        memory = Jimfs.newFileSystem(Configuration.unix());
    }

    @AfterEach
    void closeMemoryFileSystem() throws IOException {
        memory.close();
    }

    @Test
    void aDurableDirectLogKeepsItsRecordsThroughRollsTruncationPurgeAndRestarts() throws IOException {
        Path dir = memory.getPath("/data/log");
        TxnLogOptions options = smallSegments().withForceSync(true).withDirectIo(true).withChannels(recording);
        List<LogRecord> written = new ArrayList<>();
        try (TxnLog log = TxnLog.open(dir, options)) {
            written.addAll(appendAll(log, zxids(1, 200, 1), 40, 5));
            assertTrue(log.segmentFiles().size() > 3, "several segments: " + log.segmentFiles());
            log.truncateAfter(150);
            written.removeIf(record -> record.zxid() > 150);
            log.rollSegment();
            written.addAll(appendAll(log, zxids(151, 50, 1), 40, 5));
            long firstOfSecond = log.segmentRanges().get(1).firstZxid();
            log.purgeUpTo(firstOfSecond - 1);
            List<LogRecord> expected = readAll(log, 0);
            assertEquals(written.subList(written.size() - expected.size(), written.size()), expected);
            written = new ArrayList<>(expected);
        }
        assertRecords(written, reopenAndReadAll(dir, options));

        try (TxnLog log = TxnLog.open(dir, options)) {
            log.restartAfter(1000, memory.getPath("/data/set-aside"));
            written = appendAll(log, zxids(1001, 30, 1), 40, 4);
        }
        assertRecords(written, reopenAndReadAll(dir, options));
        assertFalse(Files.list(memory.getPath("/data/set-aside")).toList().isEmpty(), "segments were set aside");
        assertNothingOpenedAsDirectoryOrDirect(dir);
    }

    @Test
    void snapshotsAreWrittenVerifiedMovedAsideAndPurged() throws IOException {
        Path dir = memory.getPath("/data/snapshots");
        SnapshotStore store = new SnapshotStore(dir, recording);
        for (long zxid = 10; zxid <= 50; zxid += 10) {
            long value = zxid;
            store.write(zxid, out -> out.writeLong(value));
        }
        assertEquals(50, store.newestValid().orElseThrow().zxid());
        List<Path> oldestFirst = store.snapshotFiles();
        store.moveAside(List.of(oldestFirst.get(oldestFirst.size() - 1)), memory.getPath("/data/aside"));
        assertEquals(40, store.newestValid().orElseThrow().zxid());
        store.purge(2);
        assertEquals(List.of(40L, 30L), store.verifyAll().stream().map(SnapshotStore.SnapshotFile::zxid).toList());
        assertNothingOpenedAsDirectoryOrDirect(dir);
    }

    @Test
    void directoriesOnTheOperatingSystemFileSystemAreStillFsynced(@TempDir Path disk) throws IOException {
        Directories.fsync(disk, recording);
        assertEquals(List.of(new Opened(disk, Set.of(java.nio.file.StandardOpenOption.READ))), opened);
        opened.clear();
        Directories.fsync(memory.getPath("/"), recording);
        assertEquals(List.of(), opened, "an in-memory directory has nothing to fsync");
    }

    private void assertNothingOpenedAsDirectoryOrDirect(Path dir) {
        assertFalse(opened.isEmpty(), "the channel factory saw the storage's files");
        for (Opened each : opened) {
            assertFalse(Files.isDirectory(each.path()), "a directory was opened for an fsync: " + each);
            assertFalse(each.options().contains(DirectIo.OPTION), "O_DIRECT asked of " + each);
            assertTrue(each.path().startsWith(dir.getParent()), each + " outside " + dir.getParent());
        }
    }
}
