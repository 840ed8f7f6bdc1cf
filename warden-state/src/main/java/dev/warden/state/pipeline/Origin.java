package dev.warden.state.pipeline;

import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.state.auth.AuthIdentities;

/** Where a request came from and where its reply goes: a client connection. */
public interface Origin {
    AuthIdentities identities();

    /** Queues a reply; replies leave in the order they are queued. Thread-safe. */
    void send(ReplyHeader header, Record body);

    /**
     * Called once per request that entered the pipeline, after its reply is queued (or, for a
     * session closed meanwhile, when it is dropped).
     */
    void requestDone(Request request);

    /** Flushes what is queued, then closes the connection. */
    void closeAfterFlush();

    /** The watcher identity of this connection. */
    dev.warden.state.watch.WatchRecipient watcher();

    /** The session is established (handshake finished by the applier). */
    void sessionCreated(long sessionId, int timeoutMs, byte[] password);
}
