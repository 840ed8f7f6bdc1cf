package dev.warden.server.jmx;

/** ZooKeeper's bean of one member as its server line gives it ({@code name1=replica.<id>}). */
public interface RemotePeerMXBean {
    String getName();

    String getQuorumAddress();

    String getElectionAddress();

    /** host:port for clients from the server line, empty when the line has none. */
    String getClientAddress();

    /** PARTICIPANT or OBSERVER. */
    String getLearnerType();

    /** True while this member is the leader this server follows (or is). */
    boolean isLeader();
}
