package dev.warden.server.pipeline;

/** What the pipeline tells the rest of the server. */
public interface PipelineListener {
    /** A session ended through the log (close or expiry): drop its connection. */
    void sessionClosed(long sessionId);

    /** The global in-flight count fell below the limit: resume reading paused connections. */
    void belowOutstandingLimit();

    /** Every {@code snapCount}-ish transactions, after the log rolled to a new segment. */
    void snapshotDue();
}
