package dev.warden.protocol;

/** Wire record RequestHeader (jute). */
public record RequestHeader(int xid, int type) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(xid);
        out.writeInt(type);
    }

    public static RequestHeader read(JuteReader in) {
        return new RequestHeader(in.readInt(), in.readInt());
    }
}
