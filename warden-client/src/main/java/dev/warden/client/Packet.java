package dev.warden.client;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.ProtocolException;
import java.util.concurrent.CompletableFuture;

/**
 * One request: its encoded frame (built on the caller's thread, so the size check and the
 * encoding cost stay off the I/O thread), how to decode its reply, and its future. Only the
 * xid is filled in by the I/O thread, at write time, because xids must follow wire order.
 */
final class Packet<T> {
    /** Turns a reply into a value, or throws a {@link WardenException}. Runs on the I/O thread. */
    @FunctionalInterface
    interface ReplyDecoder<T> {
        T decode(int err, JuteReader body);
    }

    static final int XID_OFFSET = 4;

    final int opCode;
    final String path;
    final boolean idempotent;
    final long submittedNanos;
    final CompletableFuture<T> future = new CompletableFuture<>();
    private final byte[] frame;
    private final ReplyDecoder<T> decoder;
    private int xid;
    private int retries;

    Packet(int opCode, String path, boolean idempotent, byte[] frame, ReplyDecoder<T> decoder, long submittedNanos) {
        this.opCode = opCode;
        this.path = path;
        this.idempotent = idempotent;
        this.frame = frame;
        this.decoder = decoder;
        this.submittedNanos = submittedNanos;
    }

    byte[] frame() {
        return frame;
    }

    int xid() {
        return xid;
    }

    int retries() {
        return retries;
    }

    void countRetry() {
        retries++;
    }

    /** Stamps the xid into the frame; the same frame is reused when the request is re-sent. */
    void assignXid(int newXid) {
        xid = newXid;
        frame[XID_OFFSET] = (byte) (newXid >>> 24);
        frame[XID_OFFSET + 1] = (byte) (newXid >>> 16);
        frame[XID_OFFSET + 2] = (byte) (newXid >>> 8);
        frame[XID_OFFSET + 3] = (byte) newXid;
    }

    /** Decodes the reply now (on the I/O thread, so watches register in wire order) and returns the completion. */
    Runnable onReply(int err, JuteReader body) {
        try {
            T value = decoder.decode(err, body);
            return () -> future.complete(value);
        } catch (WardenException e) {
            if (retries > 0) {
                e.markResent();
            }
            return () -> future.completeExceptionally(e);
        } catch (ProtocolException e) {
            WardenException failure = new WardenException(ErrorCode.MARSHALLING_ERROR, path, e.getMessage());
            return () -> future.completeExceptionally(failure);
        }
    }

    Runnable failure(WardenException e) {
        return () -> future.completeExceptionally(e);
    }
}
