package dev.warden.server.jmx;

/**
 * ZooKeeper's observer bean ({@code name2=Observer}): the server's figures, plus the member the
 * observer syncs from. Its quorum address and pending revalidations are ZooKeeper machinery
 * Warden does not have.
 */
public interface ObserverMXBean extends ZooKeeperServerMXBean {
    /** The address of the member this observer syncs from, {@code host:port}; "Unknown" while it syncs from none. */
    String getLearnerMaster();

    /**
     * Asks the observer to leave the member it syncs from and sync from this one: a member id, or
     * an address as {@link #getLearnerMaster} gives it (or its start). It must be a voter and
     * observerMasterPort must be set; otherwise "Not a valid learner master".
     */
    void setLearnerMaster(String learnerMaster);
}
