package dev.warden.consensus;

import java.util.Set;

/**
 * Decides which sets of members are a quorum in one configuration. Every count the core makes
 * (votes, epoch promises, acknowledgements, heartbeats) asks a verifier instead of comparing a
 * number with half the voters, so majorities and ZooKeeper's hierarchical quorums
 * ({@code group.N}/{@code weight.N}) follow the same rules. Ids that are not voters of the
 * configuration, and voters of weight 0, never count.
 */
public interface QuorumVerifier {
    /** Voting members (participants), weight-0 ones included. */
    Set<Long> voters();

    /** Non-voting members that receive committed entries. */
    Set<Long> observers();

    /** This member's weight: 0 for observers, strangers and voters given weight 0. */
    long weight(long id);

    /** True if the voters among {@code ids} form a quorum. */
    boolean containsQuorum(Set<Long> ids);

    default boolean isVoter(long id) {
        return voters().contains(id);
    }

    default boolean isObserver(long id) {
        return observers().contains(id);
    }

    default boolean isMember(long id) {
        return isVoter(id) || isObserver(id);
    }

    /** Only a voter whose support counts may lead: a weight-0 voter could lead no quorum it belongs to. */
    default boolean mayLead(long id) {
        return isVoter(id) && weight(id) > 0;
    }
}
