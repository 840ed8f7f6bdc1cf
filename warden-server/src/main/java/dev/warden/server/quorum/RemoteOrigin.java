package dev.warden.server.quorum;

import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.Request;
import dev.warden.state.watch.WatchRecipient;

/**
 * The origin of a request forwarded by a member, as the leader's prep sees it: only its
 * identities matter there (ACL checks). Its answer travels back through the log or as an
 * {@link AppMessage.Failed}, never through this object.
 */
final class RemoteOrigin implements Origin {
    private final AuthIdentities identities;

    public RemoteOrigin(AuthIdentities identities) {
        this.identities = identities;
    }

    @Override
    public AuthIdentities identities() {
        return identities;
    }

    @Override
    public void send(ReplyHeader header, Record body) {
        throw new IllegalStateException("a forwarded request is answered by its member");
    }

    @Override
    public void requestDone(Request request) {
    }

    @Override
    public void closeAfterFlush() {
    }

    @Override
    public WatchRecipient watcher() {
        throw new IllegalStateException("a forwarded request has no watcher on the leader");
    }

    @Override
    public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
        throw new IllegalStateException("a forwarded session is established by its member");
    }
}
