package dev.warden.server.jmx;

/** ZooKeeper's bean of a member's quorum ({@code name0=ReplicatedServer_id<N>}), the attributes Warden has. */
public interface QuorumMXBean {
    String getName();

    /** The voting members. */
    int getQuorumSize();

    int getInitLimit();

    int getSyncLimit();

    boolean isDigestEnabled();

    /** TLS between members: Warden's members do not use it yet. */
    boolean isSslQuorum();

    boolean isPortUnification();
}
