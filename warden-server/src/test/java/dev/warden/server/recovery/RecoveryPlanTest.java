package dev.warden.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.recovery.RecoveryPlan.Recover;
import dev.warden.server.recovery.RecoveryPlan.SegmentFacts;
import dev.warden.server.recovery.RecoveryPlan.SnapshotFacts;
import dev.warden.server.recovery.RecoveryPlan.Unprovable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The recovery rule on hand-made facts: what is provable, what is set aside, what is refused. */
class RecoveryPlanTest {

    /** A log of consecutive zxids cut into segments at the given first zxids; every zxid a record. */
    private static final class Log {
        final List<SegmentFacts> segments = new ArrayList<>();
        final Set<Long> records = new TreeSet<>();

        Log segment(long previous, long first, long last) {
            segments.add(new SegmentFacts(previous, first, last, "log." + first, null));
            for (long zxid = first; zxid <= last; zxid++) {
                records.add(zxid);
            }
            return this;
        }

        Log damaged(long previous, long first, long lastGood) {
            segments.add(new SegmentFacts(previous, first, lastGood, "log." + first, "bad CRC"));
            return this;
        }

        RecoveryPlan.Decision decide(long emptyStart, SnapshotFacts... snapshots) {
            return RecoveryPlan.decide(List.of(snapshots), segments, emptyStart, records::contains);
        }
    }

    private static SnapshotFacts valid(long zxid) {
        return new SnapshotFacts(zxid, zxid, "snapshot." + zxid, null);
    }

    private static SnapshotFacts fuzzy(long zxid, long reached) {
        return new SnapshotFacts(zxid, reached, "snapshot." + zxid, null);
    }

    private static SnapshotFacts invalid(long zxid) {
        return new SnapshotFacts(zxid, zxid, "snapshot." + zxid, "CRC32C mismatch");
    }

    @Test
    void aNewDirectoryRecoversToTheEmptyTree() {
        Recover recover = assertInstanceOf(Recover.class, new Log().decide(0));
        assertNull(recover.snapshot());
        assertEquals(0, recover.logEndZxid());
    }

    @Test
    void aLogFromTheStartNeedsNoSnapshot() {
        Recover recover = assertInstanceOf(Recover.class, new Log().segment(0, 1, 50).segment(50, 51, 90).decide(0));
        assertNull(recover.snapshot());
        assertEquals(90, recover.logEndZxid());
        assertTrue(recover.setAsideSegments().isEmpty());
    }

    @Test
    void theNewestSnapshotTheLogReachesBackToIsChosen() {
        Log log = new Log().segment(0, 1, 50).segment(50, 51, 90).segment(90, 91, 120);
        Recover recover = assertInstanceOf(Recover.class, log.decide(0, valid(30), valid(70), valid(100)));
        assertEquals(100, recover.fromZxid());
        assertEquals(120, recover.logEndZxid());
    }

    @Test
    void anInvalidNewestSnapshotFallsBackToTheNextAndIsSetAside() {
        Log log = new Log().segment(0, 1, 50).segment(50, 51, 90);
        Recover recover = assertInstanceOf(Recover.class, log.decide(0, valid(30), invalid(70)));
        assertEquals(30, recover.fromZxid());
        assertEquals(List.of(invalid(70)), recover.setAsideSnapshots());
    }

    @Test
    void damagedSnapshotsAndAPurgedStartAreUnprovable() {
        // every snapshot damaged at rest and the first segment removed: the empty tree plus a late
        // log is not the state, and neither is anything else
        Log log = new Log().segment(40, 41, 70).segment(70, 71, 90);
        Unprovable unprovable = assertInstanceOf(Unprovable.class,
                log.decide(0, invalid(40), invalid(60), invalid(80)));
        String problems = String.join("\n", unprovable.problems());
        assertTrue(problems.contains("no snapshot is valid"), problems);
        assertTrue(problems.contains("start after 0x28"), problems);
        assertTrue(problems.contains("snapshot.80 is invalid"), problems);
        Recover last = unprovable.lastProvable();
        assertNull(last.snapshot());
        assertEquals(0, last.logEndZxid());
        assertEquals(2, last.setAsideSegments().size());
        assertEquals(3, last.setAsideSnapshots().size());
    }

    @Test
    void aSnapshotWhoseZxidTheLogDoesNotHoldIsNotAPointOfIt() {
        Log log = new Log().segment(40, 41, 70);
        log.records.remove(55L);
        assertInstanceOf(Unprovable.class, log.decide(0, valid(55)));
        Recover atStart = assertInstanceOf(Recover.class, log.decide(0, valid(40)));
        assertEquals(40, atStart.fromZxid());
    }

    @Test
    void aGapBeforeTheChosenSnapshotSetsTheOlderSegmentsAside() {
        Log log = new Log().segment(0, 1, 50).segment(60, 61, 90).segment(90, 91, 99);
        Recover recover = assertInstanceOf(Recover.class, log.decide(0, valid(20), valid(70)));
        assertEquals(70, recover.fromZxid());
        assertEquals(List.of("log.1"), recover.setAsideSegments().stream().map(SegmentFacts::name).toList());
    }

    @Test
    void aGapAfterEverySnapshotIsUnprovableAndTheLastProvableStateStopsAtIt() {
        Log log = new Log().segment(0, 1, 50).segment(50, 51, 60).segment(70, 71, 90);
        Unprovable unprovable = assertInstanceOf(Unprovable.class, log.decide(0, valid(20)));
        String problems = String.join("\n", unprovable.problems());
        assertTrue(problems.contains("log.71 follows 0x46, but the segment before it ends at 0x3c"), problems);
        Recover last = unprovable.lastProvable();
        assertEquals(20, last.fromZxid());
        assertEquals(60, last.logEndZxid());
        assertEquals(List.of("log.71"), last.setAsideSegments().stream().map(SegmentFacts::name).toList());
    }

    @Test
    void aDamagedSegmentWhollyBeforeTheSnapshotIsSetAside() {
        Log log = new Log().segment(0, 1, 30).damaged(30, 31, 35).segment(50, 51, 90);
        Recover recover = assertInstanceOf(Recover.class, log.decide(0, valid(60)));
        assertEquals(60, recover.fromZxid());
        assertEquals(List.of("log.1", "log.31"), recover.setAsideSegments().stream().map(SegmentFacts::name).toList());
    }

    @Test
    void aDamagedSegmentTheReplayNeedsIsUnprovable() {
        Log log = new Log().segment(0, 1, 30).damaged(30, 31, 35).segment(50, 51, 90);
        Unprovable unprovable = assertInstanceOf(Unprovable.class, log.decide(0, valid(20)));
        assertTrue(String.join("\n", unprovable.problems()).contains("log.31 is damaged"), unprovable.problems().toString());
        assertEquals(30, unprovable.lastProvable().logEndZxid());
    }

    @Test
    void aDamagedNewestSegmentIsUnprovable() {
        Log log = new Log().segment(0, 1, 30).damaged(30, 31, 35);
        Unprovable unprovable = assertInstanceOf(Unprovable.class, log.decide(0, valid(20)));
        assertTrue(unprovable.problems().get(0).contains("newest log segment log.31 is damaged"),
                unprovable.problems().toString());
    }

    @Test
    void aSnapshotBeyondTheLogsEndIsEvidenceOfLostRecords() {
        Log log = new Log().segment(0, 1, 30);
        Unprovable unprovable = assertInstanceOf(Unprovable.class, log.decide(0, valid(20), invalid(45)));
        assertTrue(unprovable.problems().get(0).contains("history reached 0x2d"), unprovable.problems().toString());
        // a valid snapshot alone, with nothing applied while it was written, is the last provable state
        Unprovable alone = assertInstanceOf(Unprovable.class, log.decide(0, valid(20), valid(45)));
        assertEquals(45, alone.lastProvable().fromZxid());
        assertEquals(List.of("log.1"), alone.lastProvable().setAsideSegments().stream().map(SegmentFacts::name).toList());
    }

    @Test
    void aFuzzySnapshotNeedsTheLogUpToWhereItWasFinished() {
        Log log = new Log().segment(0, 1, 30);
        Recover older = assertInstanceOf(Recover.class, log.decide(0, valid(10), fuzzy(25, 30)));
        assertEquals(25, older.fromZxid());
        Unprovable unprovable = assertInstanceOf(Unprovable.class, log.decide(0, valid(10), fuzzy(25, 33)));
        assertTrue(unprovable.problems().get(0).contains("reached 0x21"), unprovable.problems().toString());
        assertEquals(10, unprovable.lastProvable().fromZxid());
    }

    @Test
    void anEmptyLogProvesOnlyThePointItSaysItStartsFrom() {
        Recover restarted = assertInstanceOf(Recover.class, new Log().decide(77, valid(77)));
        assertEquals(77, restarted.fromZxid());
        assertEquals(77, restarted.logEndZxid());
        Unprovable lost = assertInstanceOf(Unprovable.class, new Log().decide(0, valid(77)));
        assertTrue(lost.problems().get(0).contains("history reached 0x4d, but the log ends at 0x0"),
                lost.problems().toString());
        assertInstanceOf(Unprovable.class, new Log().decide(0, invalid(5)));
    }
}
