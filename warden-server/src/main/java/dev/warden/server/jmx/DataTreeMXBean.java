package dev.warden.server.jmx;

/** The tree bean under ZooKeeper's name ({@code ...,name1=InMemoryDataTree}) and attribute names. */
public interface DataTreeMXBean {
    int getNodeCount();

    String getLastZxid();

    int getWatchCount();

    long approximateDataSize();

    int countEphemerals();
}
