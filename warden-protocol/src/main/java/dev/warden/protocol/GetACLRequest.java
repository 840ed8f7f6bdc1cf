package dev.warden.protocol;

/** Wire record GetACLRequest (jute). */
public record GetACLRequest(String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
    }

    public static GetACLRequest read(JuteReader in) {
        return new GetACLRequest(in.readString());
    }
}
