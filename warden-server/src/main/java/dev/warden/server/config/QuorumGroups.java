package dev.warden.server.config;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * ZooKeeper's hierarchical quorums: {@code group.N=a:b:c} lines split the voting members into
 * disjoint groups and {@code weight.N=w} lines weigh them (1 when not given). Without any group
 * line a quorum is a plain majority ({@link #NONE}).
 *
 * @param groups  group id to the ids of the voting members in it
 * @param weights member id to weight, only for the members given a weight line
 */
public record QuorumGroups(SortedMap<Long, Set<Long>> groups, SortedMap<Long, Long> weights) {
    public static final QuorumGroups NONE = new QuorumGroups(new TreeMap<>(), new TreeMap<>());

    public QuorumGroups {
        TreeMap<Long, Set<Long>> copy = new TreeMap<>();
        groups.forEach((id, members) -> copy.put(id, Collections.unmodifiableSet(new TreeSet<>(members))));
        groups = Collections.unmodifiableSortedMap(copy);
        weights = Collections.unmodifiableSortedMap(new TreeMap<>(weights));
    }

    public boolean isHierarchical() {
        return !groups.isEmpty();
    }

    /** The weight of a member: its weight line, or 1. */
    public long weightOf(long id) {
        return weights.getOrDefault(id, 1L);
    }

    /** The group lines and weight lines, as ZooKeeper writes them after the server lines. */
    String lines() {
        StringBuilder out = new StringBuilder();
        groups.forEach((id, members) -> {
            out.append("group.").append(id).append('=');
            String sep = "";
            for (Long member : members) {
                out.append(sep).append(member);
                sep = ":";
            }
            out.append('\n');
        });
        weights.forEach((id, weight) -> out.append("weight.").append(id).append('=').append(weight).append('\n'));
        return out.toString();
    }

    static Map<Long, Set<Long>> copyOf(Map<Long, Set<Long>> groups) {
        return new TreeMap<>(groups);
    }
}
