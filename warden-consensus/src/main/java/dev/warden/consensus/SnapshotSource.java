package dev.warden.consensus;

/** Supplied by the driver: a leader calls it on its core thread when a follower needs SNAP. */
public interface SnapshotSource {
    SnapshotData take();
}
