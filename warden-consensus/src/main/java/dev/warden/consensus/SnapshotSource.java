package dev.warden.consensus;

/** Supplied by the driver: a leader calls it on its core thread when a follower needs SNAP. */
public interface SnapshotSource {
    SnapshotData take();

    /**
     * About how many bytes {@link #take} would produce now, without taking it. A leader sends a
     * follower the log entries it lacks only while they are well under this (a third of it):
     * past that a snapshot is cheaper to send and to load. The default, "unknown", leaves the
     * choice to {@link ZabConfig#maxSyncDiffBytes} alone.
     */
    default long estimatedBytes() {
        return Long.MAX_VALUE;
    }
}
