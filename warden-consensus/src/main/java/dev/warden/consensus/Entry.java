package dev.warden.consensus;

/** One replicated log entry: its zxid and the state machine's opaque payload (an encoded txn). */
public record Entry(long zxid, byte[] payload) {
    public Entry {
        if (payload == null) {
            throw new IllegalArgumentException("payload is null");
        }
    }
}
