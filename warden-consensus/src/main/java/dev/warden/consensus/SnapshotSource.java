package dev.warden.consensus;

import java.util.function.Consumer;

/** Supplied by the driver: a leader asks it for a snapshot when a follower needs SNAP. */
public interface SnapshotSource {
    /** Takes a snapshot now, on the caller's thread. */
    SnapshotData take();

    /**
     * Takes a snapshot for a SNAP and hands it to {@code taken}, which must run on the core's
     * thread. The default takes it at once ({@link #take}) and calls {@code taken} before
     * returning. A driver that takes it on another thread gives it back later, as work for the
     * core's thread between its events: a large tree then no longer stops the leader's writes
     * for as long as writing it takes. A leader asks again only after {@code taken} has run, and
     * an answer that comes after it stopped leading is ignored. An exception thrown by
     * {@code taken}'s caller on the core's thread fails the driver as one from {@link #take} would.
     */
    default void takeInBackground(Consumer<SnapshotData> taken) {
        taken.accept(take());
    }

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
