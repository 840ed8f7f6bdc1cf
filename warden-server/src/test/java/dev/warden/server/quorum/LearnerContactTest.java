package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LearnerContactTest {
    private final LearnerContact contact = new LearnerContact(1, Set.of(1L, 2L, 3L), Set.of(4L), 4000);

    @Test
    void theFirstAccountOfALeadershipSaysNothing() {
        assertEquals(List.of(), contact.update(Set.of(2L, 3L)));
        assertEquals(List.of(), contact.update(Set.of(2L, 3L)));
    }

    @Test
    void aDroppedFollowerIsAWarningNamingItTheLimitAndTheQuorum() {
        contact.update(Set.of(2L, 3L, 4L));
        List<LearnerContact.Line> lines = contact.update(Set.of(2L, 4L));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).warning());
        assertEquals("member 1: lost follower 3: nothing heard from it for more than syncLimit (4000 ms); 2 of 3"
                + " voters in touch, 2 needed", lines.get(0).text());
    }

    @Test
    void aLearnerThatComesBackIsNamedOnce() {
        contact.update(Set.of(2L));
        List<LearnerContact.Line> lines = contact.update(Set.of(2L, 4L));
        assertEquals(1, lines.size(), lines.toString());
        assertFalse(lines.get(0).warning());
        assertEquals("member 1: observer 4 is in touch; 2 of 3 voters in touch", lines.get(0).text());
        assertEquals(List.of(), contact.update(Set.of(2L, 4L)));
    }

    @Test
    void aNewLeadershipStartsAFreshAccount() {
        contact.update(Set.of(2L, 3L));
        contact.reset();
        assertEquals(List.of(), contact.update(Set.of(2L)));
    }

    @Test
    void strangersAndTheLeaderItselfAreNotLearners() {
        contact.update(Set.of(2L));
        assertEquals(List.of(), contact.update(Set.of(1L, 2L, 9L)));
    }
}
