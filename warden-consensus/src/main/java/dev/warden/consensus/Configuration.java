package dev.warden.consensus;

import java.util.Arrays;

/**
 * One configuration of the ensemble: who votes, who observes, how quorums are counted, and its
 * version, the zxid of the log entry that made it (the configuration a member starts with from its
 * files has the version written there). {@code data} is the configuration as the application
 * writes it (for a server: ZooKeeper's member lines); the core carries it along unread.
 */
public record Configuration(long version, QuorumVerifier quorum, byte[] data) {
    public Configuration {
        if (quorum == null || data == null) {
            throw new IllegalArgumentException("a configuration needs a quorum verifier and data");
        }
    }

    /** A majority configuration with no application data, as a static ensemble starts. */
    public static Configuration majority(long version, java.util.Set<Long> voters, java.util.Set<Long> observers) {
        return new Configuration(version, new MajorityQuorum(voters, observers), new byte[0]);
    }

    public Configuration withVersion(long newVersion) {
        return new Configuration(newVersion, quorum, data);
    }

    /** Same members, weights and groups (the version and data aside). */
    public boolean sameQuorumAs(Configuration other) {
        return quorum.equals(other.quorum);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Configuration c && c.version == version && c.quorum.equals(quorum)
                && Arrays.equals(c.data, data);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + quorum.hashCode();
    }

    @Override
    public String toString() {
        return "Configuration[version=" + Zxid.hex(version) + ", voters=" + new java.util.TreeSet<>(quorum.voters())
                + ", observers=" + new java.util.TreeSet<>(quorum.observers()) + "]";
    }
}
