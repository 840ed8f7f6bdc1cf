package dev.warden.protocol;

/** Wire record MultiHeader (jute). */
public record MultiHeader(int type, boolean done, int err) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(type);
        out.writeBool(done);
        out.writeInt(err);
    }

    public static MultiHeader read(JuteReader in) {
        return new MultiHeader(in.readInt(), in.readBool(), in.readInt());
    }
}
