package dev.warden.chaos.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each checker passes a history that keeps its promise and names the anomaly in one that breaks it. */
class WorkloadCheckersTest {
    private long nextId;

    private Op op(int client, String workload, String f, long atMs, Outcome outcome, Map<String, Long> in,
                  Map<String, Long> out) {
        return new Op(nextId++, client, workload, f, "/k", atMs * 1_000_000, (atMs + 1) * 1_000_000, outcome, in, out,
                outcome == Outcome.OK ? "" : "CONNECTIONLOSS");
    }

    private Op add(long at, Outcome outcome, long value, long seq, long czxid) {
        return op(1, "set", "add", at, outcome, Map.of("value", value),
                outcome == Outcome.OK ? Map.of("seq", seq, "czxid", czxid) : Map.of());
    }

    private Op found(long at, long value, long seq, long czxid) {
        return new Op(nextId++, 0, "set", "final", "/k/e-" + seq, at * 1_000_000, (at + 1) * 1_000_000, Outcome.OK,
                Map.of(), Map.of("value", value, "seq", seq, "czxid", czxid), "");
    }

    private static void assertFailsWith(CheckResult result, String words) {
        assertEquals(CheckResult.Verdict.FAIL, result.verdict(), result.toString());
        assertTrue(result.anomalies().stream().anyMatch(a -> a.what().contains(words)), result.anomalies().toString());
    }

    @Test
    void setFindsLostAndInventedValuesAndAcceptsUnknownOnesEitherWay() {
        List<Op> good = List.of(add(0, Outcome.OK, 1, 0, 10), add(1, Outcome.UNKNOWN, 2, 0, 0),
                add(2, Outcome.UNKNOWN, 3, 0, 0), found(9, 1, 0, 10), found(9, 3, 2, 12));
        assertEquals(CheckResult.Verdict.PASS, new SetChecker().check(good).verdict());
        assertFailsWith(new SetChecker().check(List.of(add(0, Outcome.OK, 1, 0, 10), found(9, 7, 0, 10))), "lost");
        assertFailsWith(new SetChecker().check(List.of(add(0, Outcome.OK, 1, 0, 10), found(9, 1, 0, 10),
                found(9, 7, 1, 11))), "invented");
        assertEquals(CheckResult.Verdict.UNKNOWN, new SetChecker().check(List.of(add(0, Outcome.OK, 1, 0, 10)))
                .verdict());
    }

    @Test
    void sequenceFindsReusedNumbersNumbersOutOfZxidOrderAndAcknowledgementsTheEndContradicts() {
        assertEquals(CheckResult.Verdict.PASS, new SequenceChecker().check(List.of(add(0, Outcome.OK, 1, 0, 10),
                add(1, Outcome.OK, 2, 1, 11), found(9, 1, 0, 10), found(9, 2, 1, 11))).verdict());
        assertFailsWith(new SequenceChecker().check(List.of(add(0, Outcome.OK, 1, 0, 10),
                add(1, Outcome.OK, 2, 0, 11))), "given to two values");
        assertFailsWith(new SequenceChecker().check(List.of(add(0, Outcome.OK, 1, 0, 12),
                add(1, Outcome.OK, 2, 1, 11))), "czxid");
        assertFailsWith(new SequenceChecker().check(List.of(add(0, Outcome.OK, 1, 0, 10),
                found(9, 1, 3, 15))), "acknowledged as seq 0");
    }

    @Test
    void sequenceNumbersAreCountedPerParent() {
        Op inA = new Op(nextId++, 1, "set", "add", "/set/s0", 0, 1, Outcome.OK, Map.of("value", 1L),
                Map.of("seq", 0L, "czxid", 10L), "");
        Op inB = new Op(nextId++, 1, "set", "add", "/set/s1", 2, 3, Outcome.OK, Map.of("value", 2L),
                Map.of("seq", 0L, "czxid", 11L), "");
        Op foundInA = new Op(nextId++, 0, "set", "final", "/set/s0/e-0000000000", 9, 10, Outcome.OK, Map.of(),
                Map.of("value", 1L, "seq", 0L, "czxid", 10L), "");
        Op foundInWrongParent = new Op(nextId++, 0, "set", "final", "/set/s1/e-0000000001", 9, 10, Outcome.OK,
                Map.of(), Map.of("value", 1L, "seq", 1L, "czxid", 10L), "");
        assertEquals(CheckResult.Verdict.PASS, new SequenceChecker().check(List.of(inA, inB, foundInA)).verdict());
        assertFailsWith(new SequenceChecker().check(List.of(inA, foundInWrongParent)), "acknowledged as seq 0");
    }

    @Test
    void queueFindsItemsTakenTwiceLostOrInvented() {
        Op put1 = op(1, "queue", "enqueue", 0, Outcome.OK, Map.of("value", 1L), Map.of());
        Op put2 = op(1, "queue", "enqueue", 1, Outcome.OK, Map.of("value", 2L), Map.of());
        Op take1 = op(2, "queue", "dequeue", 2, Outcome.OK, Map.of("value", 1L), Map.of());
        Op take1Again = op(3, "queue", "dequeue", 3, Outcome.OK, Map.of("value", 1L), Map.of());
        Op left2 = op(0, "queue", "final", 9, Outcome.OK, Map.of(), Map.of("value", 2L));
        Op none = op(0, "queue", "final-empty", 9, Outcome.OK, Map.of(), Map.of());
        assertEquals(CheckResult.Verdict.PASS, new QueueChecker().check(List.of(put1, put2, take1, left2)).verdict());
        assertFailsWith(new QueueChecker().check(List.of(put1, put2, take1, take1Again, left2)), "taken twice");
        assertFailsWith(new QueueChecker().check(List.of(put1, put2, take1, none)), "lost");
        assertFailsWith(new QueueChecker().check(List.of(put2, take1, left2)), "never enqueued");
    }

    private Op fenced(int client, long at, long token, long version) {
        return op(client, "lock", "fenced-write", at, Outcome.OK, Map.of("token", token), Map.of("version", version));
    }

    @Test
    void fencedLockFindsAStaleHolderWritingAfterANewerOneAndSharedTokens() {
        assertEquals(CheckResult.Verdict.PASS, new FencedLockChecker().check(List.of(fenced(1, 0, 100, 1),
                fenced(1, 1, 100, 2), fenced(2, 2, 200, 3))).verdict());
        assertFailsWith(new FencedLockChecker().check(List.of(fenced(1, 0, 100, 1), fenced(2, 1, 200, 2),
                fenced(1, 2, 100, 3))), "stale holder");
        assertFailsWith(new FencedLockChecker().check(List.of(fenced(1, 0, 100, 1), fenced(2, 1, 100, 2))),
                "two clients");
        assertFailsWith(new FencedLockChecker().check(List.of(fenced(1, 0, 100, 1), fenced(2, 1, 200, 1))),
                "written twice");
    }

    private Op window(long from, long to, long events, long outOfOrder) {
        return op(1, "watch", "watch-window", 0, Outcome.OK, Map.of("from", from, "to", to),
                Map.of("events", events, "outOfOrder", outOfOrder, "withZxid", events));
    }

    @Test
    void watchesFindMissedAndReorderedEvents() {
        assertEquals(CheckResult.Verdict.PASS, new WatchChecker().check(List.of(window(3, 9, 6, 0))).verdict());
        assertFailsWith(new WatchChecker().check(List.of(window(3, 9, 5, 0))), "missed 1");
        assertFailsWith(new WatchChecker().check(List.of(window(3, 9, 6, 2))), "out of zxid order");
    }

    @Test
    void sessionsFindAnEphemeralThatOutlivesItsOwner() {
        Op inTime = op(1, "session", "expiry", 0, Outcome.OK, Map.of("allowedMs", 6000L), Map.of("goneAfterMs", 4100L));
        Op late = op(1, "session", "expiry", 0, Outcome.OK, Map.of("allowedMs", 6000L), Map.of("goneAfterMs", 9000L));
        Op never = op(1, "session", "expiry", 0, Outcome.UNKNOWN, Map.of("allowedMs", 6000L), Map.of());
        assertEquals(CheckResult.Verdict.PASS, new SessionChecker().check(List.of(inTime)).verdict());
        assertFailsWith(new SessionChecker().check(List.of(late)), "outlived");
        assertFailsWith(new SessionChecker().check(List.of(never)), "never went");
    }

    @Test
    void monotonicReadsFindASessionGoingBack() {
        Op v5 = op(1, "register", "read", 0, Outcome.OK, Map.of("session", 7L), Map.of("value", 1L, "version", 5L));
        Op v4 = op(1, "register", "read-local", 1, Outcome.OK, Map.of("session", 7L), Map.of("value", 1L, "version", 4L));
        Op otherSession = op(2, "register", "read-local", 1, Outcome.OK, Map.of("session", 8L),
                Map.of("value", 1L, "version", 4L));
        assertEquals(CheckResult.Verdict.PASS, new MonotonicReadsChecker().check(List.of(v5, otherSession)).verdict());
        assertFailsWith(new MonotonicReadsChecker().check(List.of(v5, v4)), "go back from version 5 to 4");
    }

    private Op register(String f, String key, long atMs, Outcome outcome, Map<String, Long> in, Map<String, Long> out) {
        return new Op(nextId++, f.startsWith("final") ? 0 : 1, "register", f, key, atMs * 1_000_000,
                (atMs + 1) * 1_000_000, outcome, in, out, outcome == Outcome.OK ? "" : "NONODE");
    }

    @Test
    void registersFindOneThatVanishedAndOneThatWentBack() {
        Op casA = register("cas", "/chaos-reg/k0", 0, Outcome.OK, Map.of("expect", 0L, "value", 5L),
                Map.of("version", 1L));
        Op readA = register("read", "/chaos-reg/k0", 2, Outcome.OK, Map.of(), Map.of("value", 5L, "version", 1L));
        // a later key whose only op found no node: it was made, then lost with the rest of the history
        Op casB = register("read", "/chaos-reg/k1", 4, Outcome.FAIL, Map.of(), Map.of());
        Op finalA = register("final", "/chaos-reg/k0", 10, Outcome.OK, Map.of(), Map.of("value", 5L, "version", 1L));
        Op finalB = register("final", "/chaos-reg/k1", 10, Outcome.OK, Map.of(), Map.of("value", 0L, "version", 0L));
        Op nothingLeft = register("final-empty", "/chaos-reg", 10, Outcome.OK, Map.of(), Map.of());
        Op finalABack = register("final", "/chaos-reg/k0", 10, Outcome.OK, Map.of(), Map.of("value", 0L, "version", 0L));

        assertEquals(CheckResult.Verdict.PASS,
                new RegisterChecker(5_000).check(List.of(casA, readA, casB, finalA, finalB)).verdict());
        assertFailsWith(new RegisterChecker(5_000).check(List.of(casA, readA, casB, nothingLeft)),
                "register vanished: key /chaos-reg/k0");
        assertFailsWith(new RegisterChecker(5_000).check(List.of(casA, readA, casB, finalA)),
                "register vanished: key /chaos-reg/k1");
        assertFailsWith(new RegisterChecker(5_000).check(List.of(casA, readA, casB, finalABack, finalB)),
                "not linearizable: key /chaos-reg/k0");
        assertEquals(CheckResult.Verdict.UNKNOWN, new RegisterChecker(5_000).check(List.of(casA, readA, casB)).verdict(),
                "without a final read a vanished register cannot be known");
    }
}
