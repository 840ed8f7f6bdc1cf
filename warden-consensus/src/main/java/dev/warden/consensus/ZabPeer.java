package dev.warden.consensus;

import java.util.random.RandomGenerator;

/**
 * One member's Zab protocol as a pure state machine: no sockets, files, threads or clock.
 * The driver feeds it messages and the time, and performs the {@link Ready} batches it asks
 * for (persist, then send, then apply). Not thread-safe: one thread drives it.
 *
 * <p>At construction the driver has already rebuilt the state machine from its snapshot and
 * replayed its whole log into it, so everything up to {@code log.lastZxid()} counts as applied.
 */
public final class ZabPeer {

    public ZabPeer(ZabConfig config, EpochState persisted, LogView log, SnapshotSource snapshots,
                   RandomGenerator random, long nowMs) {
        throw new UnsupportedOperationException("not built yet");
    }

    /** Advances timers (heartbeats, election and sync timeouts) to {@code nowMs}. */
    public void tick(long nowMs) {
        throw new UnsupportedOperationException("not built yet");
    }

    /** A message from member {@code fromId}. */
    public void receive(long fromId, ZabMessage message) {
        throw new UnsupportedOperationException("not built yet");
    }

    /** The channel to {@code peerId} broke; messages to and from it may have been lost. */
    public void peerDisconnected(long peerId) {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Leader only, while serving: replicate {@code payload} as zxid {@code zxid}. zxids must be
     * proposed in order: the next counter of the current epoch, or, after the counter reached
     * {@link Zxid#MAX_COUNTER}, counter 1 of the next epoch (the core then moves the ensemble to
     * that epoch before sending it; service continues). Returns false if not a serving leader.
     */
    public boolean propose(long zxid, byte[] payload) {
        throw new UnsupportedOperationException("not built yet");
    }

    /** The zxid the next {@link #propose} must use (leader only; meaningless otherwise). */
    public long nextZxid() {
        throw new UnsupportedOperationException("not built yet");
    }

    /** Sends application data to the current leader (or delivers it locally on the leader). False if no leader is serving. */
    public boolean sendToLeader(byte[] payload) {
        throw new UnsupportedOperationException("not built yet");
    }

    /** Leader only: application data to one follower or observer, ordered with the proposals and commits sent to it. */
    public boolean sendTo(long peerId, byte[] payload) {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Linearizable sync: {@code token} appears in {@link Ready#syncsDone()} once this member has
     * applied everything the leader had committed when the request reached it, and the leader
     * has confirmed with a quorum round that it was still leader. False if not serving.
     */
    public boolean sync(long token) {
        throw new UnsupportedOperationException("not built yet");
    }

    public Role role() {
        throw new UnsupportedOperationException("not built yet");
    }

    /** The leader this member follows or is, or -1. */
    public long leaderId() {
        throw new UnsupportedOperationException("not built yet");
    }

    public boolean isServing() {
        throw new UnsupportedOperationException("not built yet");
    }

    /** Epochs as last handed out for persistence. */
    public EpochState epochs() {
        throw new UnsupportedOperationException("not built yet");
    }

    public long committedZxid() {
        throw new UnsupportedOperationException("not built yet");
    }

    public boolean hasReady() {
        throw new UnsupportedOperationException("not built yet");
    }

    /** Takes the pending batch of work; call {@link #advance} once it is done. */
    public Ready ready() {
        throw new UnsupportedOperationException("not built yet");
    }

    /** The driver finished {@code ready}: its entries are durable, messages sent, commits applied. */
    public void advance(Ready ready) {
        throw new UnsupportedOperationException("not built yet");
    }
}
