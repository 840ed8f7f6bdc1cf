package dev.warden.consensus;

/** Whether a leader may propose a new configuration now ({@link ZabPeer#checkReconfig}). */
public enum ReconfigCheck {
    /** It may: propose the entry that carries it. */
    OK,
    /** This member is not a serving leader. */
    NOT_LEADER,
    /** A configuration change is proposed and not committed yet: one at a time. */
    IN_PROGRESS,
    /**
     * The voters of the new configuration that are connected to the leader and synchronized
     * with it (the leader included) are no quorum of it: it could commit nothing.
     */
    NO_QUORUM
}
