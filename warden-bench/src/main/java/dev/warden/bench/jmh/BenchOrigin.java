package dev.warden.bench.jmh;

import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.Request;
import dev.warden.state.watch.WatchRecipient;

/** A connection stand-in for read benchmarks: anonymous identity, replies dropped. */
final class BenchOrigin implements Origin {
    private final AuthIdentities identities = new AuthIdentities("127.0.0.1");
    private final WatchRecipient watcher = (eventType, path, zxid, aclForReadCheck) -> { };

    @Override
    public AuthIdentities identities() {
        return identities;
    }

    @Override
    public void send(ReplyHeader header, Record body) {
    }

    @Override
    public void requestDone(Request request) {
    }

    @Override
    public void closeAfterFlush() {
    }

    @Override
    public WatchRecipient watcher() {
        return watcher;
    }

    @Override
    public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
    }
}
