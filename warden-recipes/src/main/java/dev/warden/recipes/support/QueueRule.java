package dev.warden.recipes.support;

import java.util.List;
import java.util.Objects;

/**
 * How a participant in a queue of sequential nodes decides whether it may proceed.
 *
 * @param ownPrefix    name prefix of this participant's node, e.g. {@code lock-}
 * @param queuePrefixes prefixes of all nodes that take part in the same queue
 * @param blockers     picks the one node to wait for, or null if the participant may proceed
 */
public record QueueRule(String ownPrefix, List<String> queuePrefixes, BlockerChoice blockers) {

    /** Chooses the node to watch from the participants sorted by sequence. */
    @FunctionalInterface
    public interface BlockerChoice {
        /** @return the name to wait for, or null if {@code own} may proceed now */
        String blockerOf(List<String> sortedParticipants, String own);
    }

    public QueueRule {
        Objects.requireNonNull(ownPrefix, "ownPrefix");
        Objects.requireNonNull(blockers, "blockers");
        queuePrefixes = List.copyOf(queuePrefixes);
        if (ownPrefix.isEmpty() || ownPrefix.contains("/") || !queuePrefixes.contains(ownPrefix)) {
            throw new IllegalArgumentException("bad queue prefix: " + ownPrefix);
        }
    }

    /** Exclusive turns (locks, election): each waits for its immediate predecessor only. */
    public static QueueRule exclusive(String prefix) {
        return new QueueRule(prefix, List.of(prefix), QueueRule::immediatePredecessor);
    }

    /** The node just before {@code own}, or null if {@code own} is first. */
    public static String immediatePredecessor(List<String> sorted, String own) {
        int index = sorted.indexOf(own);
        return index > 0 ? sorted.get(index - 1) : null;
    }
}
