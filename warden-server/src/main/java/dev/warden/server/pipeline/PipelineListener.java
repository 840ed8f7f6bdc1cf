package dev.warden.server.pipeline;

/** What the pipeline tells the rest of the server. */
public interface PipelineListener {
    /** A session ended through the log (close or expiry): drop its connection. */
    void sessionClosed(long sessionId);

    /**
     * A restore replaced the whole state (on the apply thread, right after it was applied):
     * every client connection and its watches go. The sessions that existed before are gone
     * unless the snapshot held them, and a watch set on the old state would describe changes
     * the client never saw, so clients reconnect, learn whether their session lives, and read
     * (and watch) the restored state afresh.
     */
    void stateRestored();

    /** The global in-flight count fell below the limit: resume reading paused connections. */
    void belowOutstandingLimit();

    /** Every {@code snapCount}-ish transactions, after the log rolled to a new segment. */
    void snapshotDue();
}
