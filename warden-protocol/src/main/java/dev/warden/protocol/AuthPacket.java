package dev.warden.protocol;

/** Wire record AuthPacket (jute). */
public record AuthPacket(int type, String scheme, byte[] auth) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(type);
        out.writeString(scheme);
        out.writeBuffer(auth);
    }

    public static AuthPacket read(JuteReader in) {
        return new AuthPacket(in.readInt(), in.readString(), in.readBuffer());
    }
}
