package dev.warden.protocol;

/** Wire record ReplyHeader (jute). */
public record ReplyHeader(int xid, long zxid, int err) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(xid);
        out.writeLong(zxid);
        out.writeInt(err);
    }

    public static ReplyHeader read(JuteReader in) {
        return new ReplyHeader(in.readInt(), in.readLong(), in.readInt());
    }
}
