package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.SnapshotData;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The model of a data directory: segments linked as the server links them, the base, purges, what a crash keeps. */
class SimDiskTest {
    private static Entry entry(long zxid) {
        return new Entry(zxid, new byte[]{(byte) zxid});
    }

    /** A snapshot body whose last eight bytes say it was finished at its own zxid, as an exact snapshot's do. */
    private static SnapshotData snapshot(long zxid) {
        return new SnapshotData(zxid, ByteBuffer.allocate(12).putInt(7).putLong(zxid).array());
    }

    private static void appendSynced(SimDisk disk, long... zxids) {
        for (long zxid : zxids) {
            disk.append(entry(zxid));
        }
        disk.fsync();
    }

    /** Segments as (previous zxid, first zxid, last zxid). */
    private static List<List<Long>> segments(SimDisk disk) {
        List<SimLog.Segment> segments = disk.segments();
        return java.util.stream.IntStream.range(0, segments.size())
                .mapToObj(i -> List.of(segments.get(i).previousZxid(), segments.get(i).firstZxid(),
                        disk.lastZxidOfSegment(i)))
                .toList();
    }

    @Test
    void aLocalSnapshotRollsTheLogAndTheNextSegmentNamesTheRecordBeforeIt() {
        SimDisk disk = new SimDisk();
        appendSynced(disk, 1, 2, 3);
        disk.takeSnapshot(snapshot(2));
        disk.fsync();
        appendSynced(disk, 4, 5);
        assertEquals(List.of(List.of(0L, 1L, 3L), List.of(3L, 4L, 5L)), segments(disk));
        assertEquals(0, disk.firstReadableZxid());
        assertEquals(2, disk.snapshots().get(0).reachedZxid());
    }

    @Test
    void truncatingBelowTheFirstSegmentLeavesABaseAndTheNextSegmentFollowsIt() {
        SimDisk disk = new SimDisk();
        disk.installSnapshot(snapshot(10));
        appendSynced(disk, 11, 12);
        disk.truncateAfter(10);
        disk.fsync();
        assertTrue(disk.segments().isEmpty());
        assertEquals(10, disk.emptyLogStart(), "the base says where the emptied log starts");
        assertEquals(10, disk.lastZxid());
        appendSynced(disk, 13);
        assertEquals(List.of(List.of(10L, 13L, 13L)), segments(disk));
    }

    @Test
    void aTruncationKeepsAppendingToTheSegmentItCut() {
        SimDisk disk = new SimDisk();
        appendSynced(disk, 1, 2);
        disk.takeSnapshot(snapshot(2));
        appendSynced(disk, 3, 4);
        disk.truncateAfter(2);
        appendSynced(disk, 5);
        assertEquals(List.of(List.of(0L, 1L, 5L)), segments(disk));
    }

    @Test
    void aSnapFromTheLeaderRestartsTheLogAfterItsZxidAndACrashBeforeTheFsyncUndoesIt() {
        SimDisk disk = new SimDisk();
        appendSynced(disk, 1, 2);
        disk.installSnapshot(snapshot(20));
        assertEquals(20, disk.firstReadableZxid());
        assertTrue(disk.segments().isEmpty());
        disk.crash(new SplittableRandom(1));
        assertEquals(List.of(List.of(0L, 1L, 2L)), segments(disk));
        assertTrue(disk.snapshots().isEmpty());
        disk.installSnapshot(snapshot(20));
        disk.fsync();
        disk.crash(new SplittableRandom(1));
        assertEquals(20, disk.emptyLogStart());
        assertEquals(20, disk.lastZxid());
    }

    @Test
    void theAutopurgeKeepsTheNewestSnapshotsAndTheLogToReplayTheOldestOfThem() {
        SimDisk disk = new SimDisk();
        long zxid = 0;
        for (int round = 0; round < 5; round++) {
            appendSynced(disk, ++zxid, ++zxid);
            disk.takeSnapshot(snapshot(zxid));
            disk.autopurge(3);
            disk.fsync();
        }
        appendSynced(disk, ++zxid);
        disk.autopurge(3);
        disk.fsync();
        assertEquals(List.of(6L, 8L, 10L), disk.snapshots().stream().map(SnapshotFile::zxid).toList());
        // the segment holding snapshot 6 starts after 4: everything after it stays
        assertEquals(List.of(List.of(4L, 5L, 6L), List.of(6L, 7L, 8L), List.of(8L, 9L, 10L), List.of(10L, 11L, 11L)),
                segments(disk));
        assertEquals(4, disk.firstReadableZxid());
    }

    @Test
    void theAutopurgeCountsOnlyValidSnapshots() {
        SimDisk disk = new SimDisk();
        long zxid = 0;
        for (int round = 0; round < 3; round++) {
            appendSynced(disk, ++zxid);
            disk.takeSnapshot(snapshot(zxid));
            disk.fsync();
        }
        disk.damageSnapshot(3);
        disk.autopurge(3);
        disk.fsync();
        assertEquals(3, disk.snapshots().size(), "two valid snapshots are fewer than three: nothing goes");
    }

    @Test
    void theMarkerIsDurableOnlyAfterAnFsyncAndGoesWithTheHistoryItGuards() {
        SimDisk disk = new SimDisk();
        appendSynced(disk, 1, 2);
        disk.takeSnapshot(snapshot(2));
        disk.fsync();
        disk.setAsideHistory();
        assertTrue(disk.hasResyncMarker());
        assertEquals(0, disk.lastZxid());
        disk.crash(new SplittableRandom(1));
        assertFalse(disk.hasResyncMarker(), "unsynced: the marker is gone, and so is the setting aside");
        assertEquals(2, disk.lastZxid());
        assertEquals(1, disk.snapshots().size());

        disk.setAsideHistory();
        disk.fsync();
        disk.crash(new SplittableRandom(1));
        assertTrue(disk.hasResyncMarker());
        assertEquals(0, disk.lastZxid());
        assertEquals(0, disk.emptyLogStart());
        assertTrue(disk.snapshots().isEmpty());
        disk.removeResyncMarker();
        disk.crash(new SplittableRandom(1));
        assertTrue(disk.hasResyncMarker(), "its removal was not synced either");
    }

    @Test
    void aCrashWithOnlyAppendsPendingMayKeepAPrefixOfThem() {
        boolean sawTorn = false;
        for (long seed = 1; seed < 40 && !sawTorn; seed++) {
            SimDisk disk = new SimDisk();
            disk.writeEpochs(new EpochState(1, 1));
            appendSynced(disk, 1);
            for (long zxid = 2; zxid <= 6; zxid++) {
                disk.append(entry(zxid));
            }
            disk.crash(new SplittableRandom(seed));
            long last = disk.lastZxid();
            assertTrue(last >= 1 && last <= 6);
            assertEquals(last - 1, disk.read(1, 6, 10).size(), "a prefix, without holes");
            sawTorn = disk.tornTailCount() > 0;
        }
        assertTrue(sawTorn);
    }

    @Test
    void filesAreDamagedOrLostOnlyWhileTheMemberIsDownAndNeverTheNewestSegment() {
        SimDisk disk = new SimDisk();
        appendSynced(disk, 1, 2);
        disk.takeSnapshot(snapshot(2));
        disk.fsync();
        appendSynced(disk, 3);
        disk.append(entry(4));
        assertThrows(IllegalStateException.class, () -> disk.loseSegment(0));
        disk.crash(new SplittableRandom(3), false);
        assertThrows(IllegalArgumentException.class, () -> disk.loseSegment(1));
        disk.loseSegment(0);
        disk.damageSnapshot(2);
        assertEquals(List.of(List.of(2L, 3L, 3L)), segments(disk));
        assertEquals(2, disk.firstReadableZxid());
        assertTrue(disk.snapshots().get(0).damaged());
    }
}
