package dev.warden.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultDeckTest {
    private static List<FaultKind> draw(FaultDeck deck, int count) {
        List<FaultKind> drawn = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            drawn.add(deck.next());
        }
        return drawn;
    }

    @Test
    void everyKindComesOnceBeforeAnyComesTwiceRoundAfterRound() {
        List<FaultKind> all = List.of(FaultKind.values());
        FaultDeck deck = new FaultDeck(all, 42);
        for (int round = 0; round < 3; round++) {
            List<FaultKind> drawn = draw(deck, all.size());
            assertEquals(EnumSet.allOf(FaultKind.class), EnumSet.copyOf(drawn), "round " + round + ": " + drawn);
        }
    }

    @Test
    void theOrderFollowsTheSeed() {
        List<FaultKind> all = List.of(FaultKind.values());
        assertEquals(draw(new FaultDeck(all, 7), 40), draw(new FaultDeck(all, 7), 40));
        assertNotEquals(draw(new FaultDeck(all, 7), 40), draw(new FaultDeck(all, 8), 40));
    }
}
