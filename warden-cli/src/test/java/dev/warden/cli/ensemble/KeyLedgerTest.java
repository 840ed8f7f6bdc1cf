package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The verdicts the fault tests rest on must be able to say no. */
class KeyLedgerTest {
    @Test
    void lastAcknowledgedValueOrALaterUnansweredOneIsAccepted() {
        KeyLedger key = new KeyLedger("/load/c0-k0");
        key.acknowledged(key.nextSeq());
        long unanswered = key.nextSeq();
        key.unknown(unanswered);
        assertEquals(List.of(), key.check(key.value(0)));
        assertEquals(List.of(), key.check(key.value(unanswered)));
    }

    @Test
    void lostOrOlderOrTornValuesAreReported() {
        KeyLedger key = new KeyLedger("/load/c0-k0");
        key.acknowledged(key.nextSeq());
        key.acknowledged(key.nextSeq());
        assertTrue(key.check(null).get(0).contains("missing, but write #1 was acknowledged"));
        assertTrue(key.check(key.value(0)).get(0).contains("holds write #0 but the last acknowledged is #1"));
        assertTrue(key.check("/load/c0-k0#".getBytes(StandardCharsets.UTF_8)).get(0).contains("not a whole value"));
        assertTrue(key.check(new KeyLedger("/load/c1-k0").value(1)).get(0).contains("not a whole value"));
    }

    @Test
    void anAcknowledgedWriteSettlesEarlierUnansweredOnes() {
        KeyLedger key = new KeyLedger("/k");
        long lost = key.nextSeq();
        key.unknown(lost);
        assertEquals(List.of(), key.check(null), "an unanswered create may not have happened");
        key.acknowledged(key.nextSeq());
        assertEquals(0, key.unknownCount());
        assertEquals(1, key.check(key.value(lost)).size(), "the later acknowledged write overwrote it");
    }

    @Test
    void treesThatDifferInOneStatFieldAreReportedAtThatPath() {
        SortedMap<String, TreeDump.Node> a = new TreeMap<>();
        a.put("/", new TreeDump.Node("", 0, 0, 0, 3, 0));
        a.put("/x", new TreeDump.Node("v", 5, 7, 2, 0, 0));
        SortedMap<String, TreeDump.Node> b = new TreeMap<>(a);
        assertEquals(Optional.empty(), TreeDump.firstDifference("m1", a, "m2", b));
        b.put("/x", new TreeDump.Node("v", 5, 8, 2, 0, 0));
        String difference = TreeDump.firstDifference("m1", a, "m2", b).orElseThrow();
        assertTrue(difference.startsWith("first difference at /x: m1 has data='v' czxid=0x5 mzxid=0x7"), difference);
        b.remove("/x");
        assertTrue(TreeDump.firstDifference("m1", a, "m2", b).orElseThrow().contains("m2 has no such node"));
    }
}
