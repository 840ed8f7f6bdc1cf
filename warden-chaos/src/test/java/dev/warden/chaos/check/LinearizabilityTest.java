package dev.warden.chaos.check;

import static dev.warden.chaos.check.Ops.casFail;
import static dev.warden.chaos.check.Ops.casOk;
import static dev.warden.chaos.check.Ops.casUnknown;
import static dev.warden.chaos.check.Ops.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinearizabilityTest {
    private static Linearizability.Verdict verdict(Op... ops) {
        return Linearizability.check(List.of(ops), new CasRegister(0, 0), 10_000).verdict();
    }

    @Test
    void aSequentialHistoryIsLinearizable() {
        assertEquals(Linearizability.Verdict.LINEARIZABLE, verdict(
                casOk(1, 0, 10, 0, 5), read(2, 20, 30, 5, 1), casFail(3, 40, 50, 0, 7), read(1, 60, 70, 5, 1)));
    }

    @Test
    void aReadAfterAnAcknowledgedWriteThatReturnsTheOldValueIsNot() {
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, verdict(
                casOk(1, 0, 10, 0, 5), read(2, 20, 30, 0, 0)));
    }

    @Test
    void aReadOverlappingAWriteMaySeeEitherValue() {
        assertEquals(Linearizability.Verdict.LINEARIZABLE, verdict(casOk(1, 0, 100, 0, 5), read(2, 20, 30, 0, 0),
                read(3, 40, 50, 5, 1)));
    }

    @Test
    void onceANewValueIsReadALaterReadMayNotSeeTheOldOne() {
        // both reads overlap the write, but the second begins after the first ended
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, verdict(casOk(1, 0, 100, 0, 5),
                read(2, 20, 30, 5, 1), read(3, 40, 50, 0, 0)));
    }

    @Test
    void twoAcknowledgedCasFromTheSameVersionAreNot() {
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, verdict(casOk(1, 0, 100, 0, 5),
                casOk(2, 0, 100, 0, 6)));
    }

    @Test
    void aBadVersionWhenTheVersionMatchedIsNot() {
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, verdict(casFail(1, 0, 10, 0, 5)));
        assertEquals(Linearizability.Verdict.LINEARIZABLE, verdict(casOk(2, 0, 10, 0, 3), casFail(1, 20, 30, 0, 5)));
    }

    @Test
    void anUnknownWriteMayTakeEffectLateOrNeverButNotBeUndone() {
        assertEquals(Linearizability.Verdict.LINEARIZABLE, verdict(casUnknown(1, 0, 10, 0, 5),
                read(2, 20, 30, 0, 0), read(2, 1000, 1010, 5, 1)));
        assertEquals(Linearizability.Verdict.LINEARIZABLE, verdict(casUnknown(1, 0, 10, 0, 5),
                read(2, 20, 30, 0, 0), read(2, 1000, 1010, 0, 0)));
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, verdict(casUnknown(1, 0, 10, 0, 5),
                read(2, 20, 30, 5, 1), read(2, 1000, 1010, 0, 0)));
    }

    @Test
    void aValueNobodyWroteIsNot() {
        assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, verdict(casOk(1, 0, 10, 0, 5),
                read(2, 20, 30, 9, 1)));
    }

    @Test
    void theStuckOpIsNamed() {
        Op stale = read(2, 20, 30, 0, 0);
        Linearizability.Result result = Linearizability.check(List.of(casOk(1, 0, 10, 0, 5), stale),
                new CasRegister(0, 0), 10_000);
        assertEquals(stale, result.stuckAt().get(0));
    }

    /** Many concurrent clients against a real register, each op taking effect at a random point inside its interval. */
    @Test
    void randomConcurrentHistoriesOfARealRegisterAreLinearizableAndAStaleReadInThemIsFound() {
        for (long seed = 1; seed <= 30; seed++) {
            List<Op> history = simulatedHistory(new Random(seed), 6, 300);
            assertEquals(Linearizability.Verdict.LINEARIZABLE,
                    Linearizability.check(history, new CasRegister(0, 0), 20_000).verdict(), "seed " + seed);
            assertEquals(Linearizability.Verdict.LINEARIZABLE, Linearizability.check(IneffectiveCas.prune(history),
                    new CasRegister(0, 0), 20_000).verdict(), "seed " + seed + ", pruned");
            List<Op> broken = withOneStaleRead(history);
            if (broken != null) {
                assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE,
                        Linearizability.check(broken, new CasRegister(0, 0), 20_000).verdict(), "seed " + seed);
                assertEquals(Linearizability.Verdict.NOT_LINEARIZABLE, Linearizability.check(
                        IneffectiveCas.prune(broken), new CasRegister(0, 0), 20_000).verdict(), "seed " + seed + ", pruned");
            }
        }
    }

    /**
     * Clients each run ops one after another; every op takes effect at a random instant inside its
     * own [invoke, complete] interval, applied to one true register in the order of those instants.
     * Some writes lose their answer (UNKNOWN) whether or not they took effect.
     */
    private static List<Op> simulatedHistory(Random random, int clients, int opsPerClient) {
        record Planned(int client, boolean cas, long invoke, long effect, long complete, long value, boolean lost) {
        }
        List<Planned> planned = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            long t = random.nextInt(50);
            for (int i = 0; i < opsPerClient; i++) {
                long invoke = t;
                long effect = invoke + 1 + random.nextInt(40);
                long complete = effect + 1 + random.nextInt(40);
                planned.add(new Planned(c, random.nextInt(3) > 0, invoke, effect, complete, random.nextInt(1000),
                        random.nextInt(40) == 0));
                t = complete + random.nextInt(10);
            }
        }
        planned.sort((a, b) -> Long.compare(a.effect(), b.effect()));
        long value = 0;
        long version = 0;
        long[] lastSeenVersion = new long[clients];
        List<Op> ops = new ArrayList<>();
        long id = 0;
        for (Planned p : planned) {
            Op op;
            if (p.cas()) {
                // each client CASes from the version it last saw, so some succeed and some are refused
                long expect = random.nextBoolean() ? version : lastSeenVersion[p.client()];
                boolean applies = expect == version;
                boolean takesEffect = applies && !(p.lost() && random.nextBoolean());
                if (takesEffect) {
                    value = p.value();
                    version++;
                }
                Outcome outcome = p.lost() ? Outcome.UNKNOWN : applies ? Outcome.OK : Outcome.FAIL;
                Map<String, Long> out = outcome == Outcome.OK ? Map.of("version", version) : Map.of();
                op = new Op(id++, p.client(), "register", "cas", "k", p.invoke(), p.complete(), outcome,
                        Map.of("expect", expect, "value", p.value()), out, outcome == Outcome.FAIL ? "BADVERSION" : "");
            } else {
                lastSeenVersion[p.client()] = version;
                op = new Op(id++, p.client(), "register", "read", "k", p.invoke(), p.complete(), Outcome.OK, Map.of(),
                        Map.of("value", value, "version", version), "");
            }
            ops.add(op);
        }
        return ops;
    }

    /** The history with one read, made after the register moved on, replaced by a read of an older version. */
    private static List<Op> withOneStaleRead(List<Op> history) {
        List<Op> sorted = new ArrayList<>(history);
        sorted.sort((a, b) -> Long.compare(a.invokeNs(), b.invokeNs()));
        // a version acknowledged as written, and a read invoked after that acknowledgement
        for (Op write : sorted) {
            if (!write.f().equals("cas") || !write.ok() || write.out("version") < 2) {
                continue;
            }
            for (int i = 0; i < sorted.size(); i++) {
                Op read = sorted.get(i);
                if (read.f().equals("read") && read.invokeNs() > write.completeNs() + 5) {
                    List<Op> broken = new ArrayList<>(history);
                    broken.set(broken.indexOf(read), new Op(read.id(), read.client(), "register", "read", "k",
                            read.invokeNs(), read.completeNs(), Outcome.OK, Map.of(),
                            Map.of("value", 424242L, "version", write.out("version") - 1), ""));
                    return broken;
                }
            }
        }
        return null;
    }

    @Test
    void unknownCasTheAcknowledgedOpsShowIneffectiveArePrunedAndOnlyThose() {
        Op stale = casUnknown(1, 50, 60, 0, 7);          // version 1 was read before it was called
        Op slotTaken = casUnknown(2, 0, 10, 1, 8);       // an acknowledged CAS also expected 1
        Op otherValue = casUnknown(3, 0, 10, 2, 9);      // version 3 was read holding another value
        Op applied = casUnknown(4, 0, 10, 3, 11);        // its value was read: it took effect
        Op doubt = casUnknown(5, 0, 10, 4, 12);          // nothing says either way
        List<Op> history = List.of(casOk(6, 0, 20, 0, 5), read(7, 30, 40, 5, 1), stale, slotTaken,
                casOk(8, 70, 80, 1, 6), casOk(8, 90, 95, 2, 13), read(7, 100, 110, 13, 3), read(7, 120, 130, 11, 4),
                applied, otherValue, doubt);
        List<Op> pruned = IneffectiveCas.prune(history);
        assertTrue(!pruned.contains(stale) && !pruned.contains(slotTaken) && !pruned.contains(otherValue), pruned.toString());
        assertTrue(pruned.contains(applied) && pruned.contains(doubt), pruned.toString());
        assertEquals(Linearizability.Verdict.LINEARIZABLE,
                Linearizability.check(pruned, new CasRegister(0, 0), 10_000).verdict());
    }

    /** 24 unknown CAS from long-stale versions: unpruned, the search may try every subset of them. */
    @Test
    void manyStaleUnknownCasDoNotStallTheSearch() {
        List<Op> history = new ArrayList<>();
        for (int v = 0; v < 40; v++) {
            history.add(casOk(1, 100L * v, 100L * v + 10, v, 1_000 + v));
            history.add(read(2, 100L * v + 20, 100L * v + 30, 1_000 + v, v + 1));
        }
        for (int i = 0; i < 24; i++) {
            history.add(casUnknown(10 + i, 1_000 + 100L * i, 1_010 + 100L * i, 0, 5_000 + i));
        }
        List<Op> pruned = IneffectiveCas.prune(history);
        assertEquals(80, pruned.size());
        assertEquals(Linearizability.Verdict.LINEARIZABLE,
                Linearizability.check(pruned, new CasRegister(0, 0), 10_000).verdict());
    }

    @Test
    void theCheckerReportsEachKeyOnItsOwn() {
        Op good = new Op(100, 1, "register", "cas", "a", 0, 10, Outcome.OK, Map.of("expect", 0L, "value", 1L),
                Map.of("version", 1L), "");
        Op bad = new Op(101, 2, "register", "read", "b", 20, 30, Outcome.OK, Map.of(),
                Map.of("value", 9L, "version", 3L), "");
        Op finalA = new Op(102, 0, "register", "final", "a", 40, 50, Outcome.OK, Map.of(),
                Map.of("value", 1L, "version", 1L), "");
        Op finalB = new Op(103, 0, "register", "final", "b", 40, 50, Outcome.OK, Map.of(),
                Map.of("value", 9L, "version", 3L), "");
        CheckResult result = new RegisterChecker(5_000).check(List.of(good, bad, finalA, finalB));
        assertEquals(CheckResult.Verdict.FAIL, result.verdict());
        assertEquals(1, result.anomalies().size());
        assertTrue(result.anomalies().get(0).what().contains("key b"), result.anomalies().toString());
    }
}
