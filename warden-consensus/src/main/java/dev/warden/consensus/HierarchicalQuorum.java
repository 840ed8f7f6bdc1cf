package dev.warden.consensus;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * ZooKeeper's hierarchical quorums ({@code group.N} and {@code weight.N}): the voters are split
 * into disjoint groups and each has a weight (1 unless given). A set is a quorum when, in more than
 * half of the groups whose total weight is above 0, its members hold more than half of the
 * group's weight. Groups of weight 0 are left out of the count, and weight-0 voters never count.
 *
 * @param groups  group id to the voters in it; every voter is in exactly one group
 * @param weights voter id to weight; a voter missing here weighs 1
 */
public record HierarchicalQuorum(Map<Long, Set<Long>> groups, Map<Long, Long> weights, Set<Long> observers)
        implements QuorumVerifier {
    public HierarchicalQuorum {
        Map<Long, Set<Long>> copiedGroups = new TreeMap<>();
        Set<Long> seen = new HashSet<>();
        for (Map.Entry<Long, Set<Long>> group : groups.entrySet()) {
            if (group.getValue().isEmpty()) {
                throw new IllegalArgumentException("group " + group.getKey() + " has no members");
            }
            for (Long id : group.getValue()) {
                if (!seen.add(id)) {
                    throw new IllegalArgumentException("member " + id + " is in more than one group");
                }
            }
            copiedGroups.put(group.getKey(), Set.copyOf(group.getValue()));
        }
        Map<Long, Long> copiedWeights = new HashMap<>();
        for (Map.Entry<Long, Long> weight : weights.entrySet()) {
            if (!seen.contains(weight.getKey())) {
                throw new IllegalArgumentException("weight given for member " + weight.getKey()
                        + ", which is in no group");
            }
            if (weight.getValue() < 0) {
                throw new IllegalArgumentException("weight of member " + weight.getKey() + " is negative");
            }
            copiedWeights.put(weight.getKey(), weight.getValue());
        }
        groups = java.util.Collections.unmodifiableMap(copiedGroups);
        weights = Map.copyOf(copiedWeights);
        observers = Set.copyOf(observers);
        for (Long id : observers) {
            if (seen.contains(id)) {
                throw new IllegalArgumentException("member " + id + " is both voter and observer");
            }
        }
        if (seen.isEmpty()) {
            throw new IllegalArgumentException("a configuration needs at least one voter");
        }
        boolean anyWeight = false;
        for (Long id : seen) {
            anyWeight |= copiedWeights.getOrDefault(id, 1L) > 0;
        }
        if (!anyWeight) {
            throw new IllegalArgumentException("every voter has weight 0: no set could ever be a quorum");
        }
    }

    @Override
    public Set<Long> voters() {
        Set<Long> all = new HashSet<>();
        groups.values().forEach(all::addAll);
        return Set.copyOf(all);
    }

    @Override
    public boolean isVoter(long id) {
        for (Set<Long> members : groups.values()) {
            if (members.contains(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long weight(long id) {
        return isVoter(id) ? weights.getOrDefault(id, 1L) : 0;
    }

    @Override
    public boolean containsQuorum(Set<Long> ids) {
        int weightedGroups = 0;
        int groupsWithMajority = 0;
        for (Set<Long> members : groups.values()) {
            long total = 0;
            long present = 0;
            for (Long id : members) {
                long w = weights.getOrDefault(id, 1L);
                total += w;
                if (ids.contains(id)) {
                    present += w;
                }
            }
            if (total == 0) {
                continue;
            }
            weightedGroups++;
            if (present * 2 > total) {
                groupsWithMajority++;
            }
        }
        return groupsWithMajority * 2 > weightedGroups;
    }
}
