package dev.warden.server.jmx;

/**
 * The server bean under ZooKeeper's name and attribute names
 * ({@code org.apache.ZooKeeperService:name0=StandaloneServer_port<port>}), for the tools that read
 * ZooKeeper over JMX. Only the attributes Warden has a true value for; ZooKeeper's tuning
 * setters (throttling, commit processor, response cache) are left out, as Warden has none of them.
 */
public interface ZooKeeperServerMXBean {
    String getClientPort();

    String getVersion();

    String getStartTime();

    long getMinRequestLatency();

    double getAvgRequestLatency();

    long getMaxRequestLatency();

    long getPacketsReceived();

    long getPacketsSent();

    long getFsyncThresholdExceedCount();

    long getAuthFailedCount();

    long getOutstandingRequests();

    int getTickTime();

    int getMaxClientCnxnsPerHost();

    int getMinSessionTimeout();

    int getMaxSessionTimeout();

    long getNumAliveConnections();

    long getDataDirSize();

    long getLogDirSize();

    int getJuteMaxBufferSize();

    int getLastClientResponseSize();

    int getMinClientResponseSize();

    int getMaxClientResponseSize();

    /** As srst: packets, latency, reply sizes and the slow-fsync count start again. */
    void resetStatistics();

    void resetLatency();

    void resetFsyncThresholdExceedCount();
}
