package dev.warden.protocol;

/** Wire record GetSASLRequest (jute). */
public record GetSASLRequest(byte[] token) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeBuffer(token);
    }

    public static GetSASLRequest read(JuteReader in) {
        return new GetSASLRequest(in.readBuffer());
    }
}
