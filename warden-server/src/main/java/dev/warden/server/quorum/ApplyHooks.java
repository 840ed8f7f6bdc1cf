package dev.warden.server.quorum;

/** What the {@link MemberApplier} tells the rest of the member; called on the apply thread. */
public interface ApplyHooks {
    /** A transaction is in the tree: the leader's prep may forget what it kept pending for it. */
    void applied(long zxid);

    /** A session ended through the log: close its connection here, if it has one. */
    void sessionClosed(long sessionId);

    /** The in-flight count fell below the limit: resume paused connections. */
    void belowOutstandingLimit();

    /** Every snapCount-ish applied transactions. */
    void snapshotDue();

    /** The apply thread died of {@code cause} (an Error: out of memory, say); nothing more will be applied. */
    void applyFailed(Throwable cause);
}
