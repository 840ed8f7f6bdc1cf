package dev.warden.recipes.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.recipes.rwlock.ReadWriteLock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class QueueRulesTest {

    @Test
    void sequenceNamesIgnoreTheSafeCreateMarker() {
        String marked = "_p_0b6f4a6e-3f8c-4c1e-9a47-6f1f0f7d2c11-read-0000000042";
        assertEquals("read-0000000042", SequenceNames.withoutMarker(marked));
        assertTrue(SequenceNames.hasPrefix(marked, "read-"));
        assertFalse(SequenceNames.hasPrefix(marked, "write-"));
        assertEquals(42, SequenceNames.sequenceOf(marked));
        assertFalse(SequenceNames.hasPrefix("read-12", "read-"), "ten digits are required");
        assertThrows(IllegalArgumentException.class, () -> SequenceNames.sequenceOf("lock-"));
    }

    @Test
    void participantsAreSortedBySequenceNotByName() {
        List<String> children = List.of("_p_ffffffff-ffff-ffff-ffff-ffffffffffff-lock-0000000002",
                "lock-0000000003", "_p_00000000-0000-0000-0000-000000000000-lock-0000000005", "stray", "lock-0000000001");
        List<String> sorted = SequenceNames.sortedParticipants(children, List.of("lock-"));
        assertEquals(List.of("lock-0000000001", "_p_ffffffff-ffff-ffff-ffff-ffffffffffff-lock-0000000002",
                "lock-0000000003", "_p_00000000-0000-0000-0000-000000000000-lock-0000000005"), sorted);
    }

    @Test
    void exclusiveRuleWaitsForTheImmediatePredecessorOnly() {
        List<String> sorted = List.of("lock-0000000001", "lock-0000000002", "lock-0000000003");
        QueueRule rule = QueueRule.exclusive("lock-");
        assertNull(rule.blockers().blockerOf(sorted, "lock-0000000001"));
        assertEquals("lock-0000000002", rule.blockers().blockerOf(sorted, "lock-0000000003"));
    }

    @Test
    void recipeDirectoriesMustBeAbsolute() {
        assertThrows(IllegalArgumentException.class, () -> RecipePaths.checkDirectory("a/b"));
        assertThrows(IllegalArgumentException.class, () -> RecipePaths.checkDirectory("/a/"));
        assertThrows(IllegalArgumentException.class, () -> RecipePaths.checkDirectory("/a//b"));
        assertEquals("/a/b", RecipePaths.checkDirectory("/a/b"));
    }

    /**
     * Whatever the queue of readers and writers, the nodes the rules let through are either
     * one writer alone at the head, or the readers before the first writer; and every node that
     * must wait waits for a node ahead of it (so the waits form chains, never a cycle).
     */
    @Property(tries = 300)
    void readWriteRulesGrantReadersTogetherAndWritersAlone(@ForAll @Size(max = 12) List<Boolean> writes, @ForAll long seed) {
        List<String> sorted = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            sorted.add(String.format("%s%010d", writes.get(i) ? "write-" : "read-", i));
        }
        List<String> shuffled = new ArrayList<>(sorted);
        Collections.shuffle(shuffled, new Random(seed));
        assertEquals(sorted, SequenceNames.sortedParticipants(shuffled, List.of("read-", "write-")));

        List<Integer> granted = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            QueueRule rule = writes.get(i) ? ReadWriteLock.WRITE_RULE : ReadWriteLock.READ_RULE;
            String blocker = rule.blockers().blockerOf(sorted, sorted.get(i));
            if (blocker == null) {
                granted.add(i);
            } else {
                assertTrue(sorted.indexOf(blocker) < i, "waits only for someone ahead");
            }
        }
        int firstWriter = writes.indexOf(true);
        if (firstWriter == 0) {
            assertEquals(List.of(0), granted);
        } else {
            int readersAhead = firstWriter < 0 ? writes.size() : firstWriter;
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < readersAhead; i++) {
                expected.add(i);
            }
            assertEquals(expected, granted);
        }
    }
}
