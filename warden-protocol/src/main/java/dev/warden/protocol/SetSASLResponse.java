package dev.warden.protocol;

/** Wire record SetSASLResponse (jute). */
public record SetSASLResponse(byte[] token) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeBuffer(token);
    }

    public static SetSASLResponse read(JuteReader in) {
        return new SetSASLResponse(in.readBuffer());
    }
}
