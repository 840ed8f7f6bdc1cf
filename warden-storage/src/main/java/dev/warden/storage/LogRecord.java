package dev.warden.storage;

import java.util.Arrays;
import java.util.Objects;

/** One transaction log entry: the zxid and the caller's opaque payload. */
public record LogRecord(long zxid, byte[] payload) {

    public LogRecord {
        Objects.requireNonNull(payload, "payload");
    }

    // Records compare arrays by identity; a log entry is a value, so compare contents.
    @Override
    public boolean equals(Object other) {
        return other instanceof LogRecord that && zxid == that.zxid && Arrays.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(zxid) * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "LogRecord[zxid=0x" + Long.toHexString(zxid) + ", payloadBytes=" + payload.length + "]";
    }
}
