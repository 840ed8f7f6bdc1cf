package dev.warden.server.jmx;

/** One learner's connection to its leader or observer master (ZooKeeper's LearnerHandlerMXBean). */
public interface LearnerConnectionMXBean {
    /** Closes the connection; the learner looks for its leader again and rejoins. */
    void terminateConnection();
}
