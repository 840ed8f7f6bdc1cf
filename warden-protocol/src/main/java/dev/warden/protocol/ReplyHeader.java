package dev.warden.protocol;

/** Wire record ReplyHeader (jute). */
public record ReplyHeader(int xid, long zxid, int err) implements Record {
    /** Encoded size: xid, zxid, err. */
    public static final int BYTES = 4 + 8 + 4;

    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(xid);
        out.writeLong(zxid);
        out.writeInt(err);
    }

    @Override
    public int sizeHintBytes() {
        return BYTES;
    }

    public static ReplyHeader read(JuteReader in) {
        return new ReplyHeader(in.readInt(), in.readLong(), in.readInt());
    }
}
