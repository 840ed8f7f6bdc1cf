package dev.warden.consensus;

import java.util.Set;

/** More than half of the voters, each counting once: ZooKeeper's default. */
public record MajorityQuorum(Set<Long> voters, Set<Long> observers) implements QuorumVerifier {
    public MajorityQuorum {
        voters = Set.copyOf(voters);
        observers = Set.copyOf(observers);
        if (voters.isEmpty()) {
            throw new IllegalArgumentException("a configuration needs at least one voter");
        }
        for (Long id : observers) {
            if (voters.contains(id)) {
                throw new IllegalArgumentException("member " + id + " is both voter and observer");
            }
        }
    }

    @Override
    public long weight(long id) {
        return voters.contains(id) ? 1 : 0;
    }

    @Override
    public boolean containsQuorum(Set<Long> ids) {
        int count = 0;
        for (Long id : ids) {
            if (voters.contains(id)) {
                count++;
            }
        }
        return count * 2 > voters.size();
    }
}
