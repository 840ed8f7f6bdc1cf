package dev.warden.state.txn;

import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.ProtocolException;

/**
 * One logged transaction: who asked (session, cxid), its zxid, the leader's wall time and the
 * idempotent change itself. Replaying a transaction over a state that already contains it
 * leaves the state unchanged, which is what makes fuzzy snapshots valid.
 */
public record Txn(long sessionId, int cxid, long zxid, long timeMs, TxnBody body) {
    private static final int FORMAT_VERSION = 1;
    /** Format version, session id, cxid, zxid, time. */
    private static final int HEADER_BYTES = 1 + 8 + 4 + 8 + 8;

    public byte[] encode() {
        // Sized exactly for ASCII paths, so a 1 KiB setData is encoded without growing the array
        // (each growth copies it) and returned without a final trimming copy.
        JuteWriter out = new JuteWriter(HEADER_BYTES + TxnBody.sizeHintBytes(body));
        out.writeByte(FORMAT_VERSION);
        out.writeLong(sessionId);
        out.writeInt(cxid);
        out.writeLong(zxid);
        out.writeLong(timeMs);
        TxnBody.write(body, out);
        return out.toExactArray();
    }

    /**
     * True if {@code bytes} encode a configuration change, read from the body's tag alone: the
     * consensus core asks this of every entry it logs.
     */
    public static boolean isReconfig(byte[] bytes) {
        return bytes.length > HEADER_BYTES && bytes[0] == FORMAT_VERSION && bytes[HEADER_BYTES] == TxnBody.RECONFIG_TAG;
    }

    public static Txn decode(byte[] bytes) {
        JuteReader in = new JuteReader(bytes, 0, bytes.length, Integer.MAX_VALUE);
        int version = in.readByte();
        if (version != FORMAT_VERSION) {
            throw new ProtocolException("unknown txn format version " + version);
        }
        Txn txn = new Txn(in.readLong(), in.readInt(), in.readLong(), in.readLong(), TxnBody.read(in));
        in.expectEnd("txn");
        return txn;
    }
}
