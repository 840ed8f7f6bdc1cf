package dev.warden.chaos.nemesis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order in which the nemesis draws fault kinds: like a shuffled deck, every kind once before
 * any kind twice, then reshuffled. A short run (the build's) thus meets as many different faults
 * as it has time for, where independent draws repeat some and miss others. The deck has its own
 * random source, so the order of kinds depends on the seed alone, not on how many random choices
 * (targets, hold times) the faults before made.
 */
final class FaultDeck {
    private final List<FaultKind> kinds;
    private final Random random;
    private final List<FaultKind> left = new ArrayList<>();

    FaultDeck(List<FaultKind> kinds, long seed) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("a fault deck needs at least one kind");
        }
        this.kinds = List.copyOf(kinds);
        // not Random(seed) itself: the nemesis draws targets and hold times from that sequence
        this.random = new Random(seed ^ 0x5DEECE66DL);
    }

    FaultKind next() {
        if (left.isEmpty()) {
            left.addAll(kinds);
            Collections.shuffle(left, random);
        }
        return left.remove(0);
    }
}
