package dev.warden.server.recovery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Decides, from what a data directory holds, which state a server can prove and recover to. A
 * pure function of the facts (the server gathers them from its files, the simulator from its
 * model of a disk), so the rule is one piece of code wherever it runs.
 *
 * <p>The rule. The log is a chain: each segment names the zxid its first record follows, so a
 * run of sound segments each following the last record of the one before holds every record of
 * the history from its start to its end. Only the run that ends with the newest segment can
 * reach the log's end. A state is provable from a valid snapshot (or from the empty tree, zxid 0)
 * whose zxid is a point of that run: the zxid the run starts after, or one of its records. The
 * newest such snapshot is chosen and the run replayed after it. A log holding no segment proves
 * only the point it says it starts from. Segments before the run (older history cut off by a gap
 * or damage) are set aside, since no DIFF may be served across them. Anything else, including a
 * snapshot file, valid or not, whose zxid lies beyond the run's end (evidence that the history
 * went further than the log can show), is unprovable.
 */
public final class RecoveryPlan {

    /**
     * A snapshot file: the zxid it was started at, the zxid it had reached when it was finished
     * (fuzzy: it may hold changes up to there, so the log must reach at least that far), a name
     * for messages, and why it failed verification (null if valid).
     */
    public record SnapshotFacts(long zxid, long reachedZxid, String name, String problem) {
        public boolean isValid() {
            return problem == null;
        }
    }

    /**
     * A log segment: the zxid its first record follows, its first and last zxids, a name for
     * messages, and its damage (null if it verified).
     */
    public record SegmentFacts(long previousZxid, long firstZxid, long lastZxid, String name, String damage) {
        public boolean isSound() {
            return damage == null;
        }
    }

    /** Whether the log holds a record with exactly this zxid (sound segments only). */
    @FunctionalInterface
    public interface Records {
        boolean holds(long zxid);
    }

    /** What to do. */
    public sealed interface Decision permits Recover, Unprovable {
    }

    /**
     * Recover from {@code snapshot} (null: the empty tree) and replay the log after its zxid, up to
     * {@code logEndZxid}. {@code setAsideSegments} and {@code setAsideSnapshots} are moved out of
     * the way first (never deleted): segments recovery cannot use, invalid snapshots, and, when
     * recovering to the last provable state, everything beyond it.
     */
    public record Recover(SnapshotFacts snapshot, long logEndZxid, List<SegmentFacts> setAsideSegments,
                          List<SnapshotFacts> setAsideSnapshots) implements Decision {
        public long fromZxid() {
            return snapshot == null ? 0 : snapshot.zxid();
        }

        public String describe() {
            return (snapshot == null ? "the empty tree" : "snapshot " + snapshot.name()) + " and the log up to 0x"
                    + Long.toHexString(logEndZxid);
        }
    }

    /**
     * No state can be proven. {@code problems} says why, one line each; {@code lastProvable} is
     * the newest state that can be proven if what lies beyond it is given up.
     */
    public record Unprovable(List<String> problems, Recover lastProvable) implements Decision {
    }

    /** A run of linked, sound segments: every record after {@code startZxid} up to {@code endZxid}. */
    private record Run(int fromIndex, int toIndex, long startZxid, long firstZxid, long endZxid) {
        boolean holdsPoint(long zxid, Records records) {
            return zxid == startZxid || zxid >= firstZxid && zxid <= endZxid && records.holds(zxid);
        }
    }

    private RecoveryPlan() {
    }

    /**
     * @param snapshots     every snapshot file, valid or not, in any order
     * @param segments      every segment, oldest first
     * @param emptyLogStart where a log holding no segment starts (its base; 0 for a new log)
     * @param records       exact record lookup in the sound segments
     */
    public static Decision decide(List<SnapshotFacts> snapshots, List<SegmentFacts> segments, long emptyLogStart,
                                  Records records) {
        List<SnapshotFacts> newestFirst = new ArrayList<>(snapshots);
        newestFirst.sort(Comparator.comparingLong(SnapshotFacts::zxid).reversed());
        List<SnapshotFacts> invalid = newestFirst.stream().filter(s -> !s.isValid()).toList();
        List<Run> runs = runs(segments);
        List<String> problems = new ArrayList<>();

        Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        boolean logReachesItsEnd = segments.isEmpty() || last != null && last.toIndex() == segments.size() - 1;
        if (!logReachesItsEnd) {
            SegmentFacts newest = segments.get(segments.size() - 1);
            problems.add("the newest log segment " + newest.name() + " is damaged: " + newest.damage());
        } else {
            long start = segments.isEmpty() ? emptyLogStart : last.startZxid();
            long end = segments.isEmpty() ? emptyLogStart : last.endZxid();
            Records lookup = segments.isEmpty() ? zxid -> false : records;
            Run usable = new Run(segments.isEmpty() ? 0 : last.fromIndex(), segments.size() - 1, start,
                    segments.isEmpty() ? Long.MAX_VALUE : last.firstZxid(), end);
            SnapshotFacts chosen = null;
            boolean found = false;
            for (SnapshotFacts snapshot : newestFirst) {
                if (snapshot.isValid() && usable.holdsPoint(snapshot.zxid(), lookup) && snapshot.reachedZxid() <= end) {
                    chosen = snapshot;
                    found = true;
                    break;
                }
            }
            if (!found && usable.holdsPoint(0, lookup)) {
                found = true; // the log reaches back to the very start: the empty tree
            }
            SnapshotFacts furthest = furthest(newestFirst);
            long beyond = furthest == null ? 0 : reach(furthest);
            if (found && beyond <= end) {
                List<SegmentFacts> before = segments.subList(0, segments.isEmpty() ? 0 : last.fromIndex());
                return new Recover(chosen, end, List.copyOf(before), invalid);
            }
            if (found) {
                problems.add("snapshot " + furthest.name() + " shows the history reached 0x"
                        + Long.toHexString(beyond) + ", but the log ends at 0x" + Long.toHexString(end)
                        + ": the records after that are missing");
            } else {
                problems.add(describeMissingStart(newestFirst, segments, start));
            }
        }
        for (SnapshotFacts snapshot : invalid) {
            problems.add("snapshot " + snapshot.name() + " is invalid: " + snapshot.problem());
        }
        for (SegmentFacts segment : segments) {
            if (!segment.isSound() && segment != segments.get(segments.size() - 1)) {
                problems.add("log segment " + segment.name() + " is damaged: " + segment.damage());
            }
        }
        for (int i = 1; i < segments.size(); i++) {
            SegmentFacts before = segments.get(i - 1);
            SegmentFacts after = segments.get(i);
            if (before.isSound() && after.isSound() && after.previousZxid() != before.lastZxid()) {
                problems.add("log segment " + after.name() + " follows 0x" + Long.toHexString(after.previousZxid())
                        + ", but the segment before it ends at 0x" + Long.toHexString(before.lastZxid())
                        + ": the records between are missing");
            }
        }
        return new Unprovable(List.copyOf(problems), lastProvable(newestFirst, segments, runs, records));
    }

    /** How far a snapshot file shows the history went: its reached zxid if valid, else its name's zxid. */
    private static long reach(SnapshotFacts snapshot) {
        return snapshot.isValid() ? snapshot.reachedZxid() : snapshot.zxid();
    }

    private static SnapshotFacts furthest(List<SnapshotFacts> snapshots) {
        SnapshotFacts furthest = null;
        for (SnapshotFacts snapshot : snapshots) {
            if (furthest == null || reach(snapshot) > reach(furthest)) {
                furthest = snapshot;
            }
        }
        return furthest;
    }

    private static String describeMissingStart(List<SnapshotFacts> newestFirst, List<SegmentFacts> segments,
                                               long start) {
        long validCount = newestFirst.stream().filter(SnapshotFacts::isValid).count();
        String snapshotsSaid = newestFirst.isEmpty() ? "there is no snapshot"
                : validCount == 0 ? "no snapshot is valid"
                : "no valid snapshot is a point the log reaches back to";
        String logSaid = segments.isEmpty()
                ? "the log holds no segment and says it starts after 0x" + Long.toHexString(start)
                : "the log's records start after 0x" + Long.toHexString(start);
        return snapshotsSaid + ", and " + logSaid + " (the records before are missing)";
    }

    /** Splits the segments into runs of sound segments, each following the last record of the one before. */
    private static List<Run> runs(List<SegmentFacts> segments) {
        List<Run> runs = new ArrayList<>();
        int from = -1;
        for (int i = 0; i < segments.size(); i++) {
            SegmentFacts segment = segments.get(i);
            boolean continues = from >= 0 && segment.isSound()
                    && segment.previousZxid() == segments.get(i - 1).lastZxid();
            if (!continues && from >= 0) {
                runs.add(run(segments, from, i - 1));
                from = -1;
            }
            if (from < 0 && segment.isSound()) {
                from = i;
            }
        }
        if (from >= 0) {
            runs.add(run(segments, from, segments.size() - 1));
        }
        return runs;
    }

    private static Run run(List<SegmentFacts> segments, int from, int to) {
        return new Run(from, to, segments.get(from).previousZxid(), segments.get(from).firstZxid(),
                segments.get(to).lastZxid());
    }

    /**
     * The newest state that can be proven by giving up what lies beyond it: for each run, the
     * newest valid snapshot on it (or the empty tree where the run starts at 0) and the run's
     * end; or a valid snapshot alone; or, at worst, the empty tree. Everything else is set aside.
     */
    private static Recover lastProvable(List<SnapshotFacts> newestFirst, List<SegmentFacts> segments, List<Run> runs,
                                        Records records) {
        SnapshotFacts bestSnapshot = null;
        long bestEnd = 0;
        Run bestRun = null;
        for (Run run : runs) {
            for (SnapshotFacts snapshot : newestFirst) {
                if (snapshot.isValid() && run.holdsPoint(snapshot.zxid(), records)
                        && snapshot.reachedZxid() <= run.endZxid()) {
                    if (run.endZxid() > bestEnd) {
                        bestSnapshot = snapshot;
                        bestEnd = run.endZxid();
                        bestRun = run;
                    }
                    break;
                }
            }
            if (run.startZxid() == 0 && run.endZxid() > bestEnd) {
                bestSnapshot = null;
                bestEnd = run.endZxid();
                bestRun = run;
            }
        }
        for (SnapshotFacts snapshot : newestFirst) {
            // alone, a snapshot proves a state only if nothing was applied while it was written
            if (snapshot.isValid() && snapshot.reachedZxid() == snapshot.zxid() && snapshot.zxid() > bestEnd) {
                bestSnapshot = snapshot;
                bestEnd = snapshot.zxid();
                bestRun = null;
            }
        }
        List<SegmentFacts> setAside = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            if (bestRun == null || i < bestRun.fromIndex() || i > bestRun.toIndex()) {
                setAside.add(segments.get(i));
            }
        }
        long end = bestEnd;
        List<SnapshotFacts> snapshotsAside = newestFirst.stream()
                .filter(s -> !s.isValid() || s.zxid() > end).toList();
        return new Recover(bestSnapshot, bestEnd, List.copyOf(setAside), snapshotsAside);
    }
}
