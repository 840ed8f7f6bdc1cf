package dev.warden.server.jmx;

/** ZooKeeper's bean of the member itself ({@code name1=replica.<own id>}): its line plus its state and settings. */
public interface LocalPeerMXBean extends RemotePeerMXBean {
    /** leading, following, observing or looking, in ZooKeeper's words. */
    String getState();

    long getConfigVersion();

    /** The member list as /zookeeper/config holds it. */
    String getQuorumSystemInfo();

    boolean isPartOfEnsemble();

    int getTickTime();

    int getInitLimit();

    int getSyncLimit();

    int getMinSessionTimeout();

    int getMaxSessionTimeout();

    int getMaxClientCnxnsPerHost();

    /** ZooKeeper 3.9's only election algorithm, fast leader election. */
    int getElectionType();

    String getStartTime();
}
