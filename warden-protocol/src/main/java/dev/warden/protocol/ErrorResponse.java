package dev.warden.protocol;

/** Wire record ErrorResponse (jute). */
public record ErrorResponse(int err) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(err);
    }

    public static ErrorResponse read(JuteReader in) {
        return new ErrorResponse(in.readInt());
    }
}
