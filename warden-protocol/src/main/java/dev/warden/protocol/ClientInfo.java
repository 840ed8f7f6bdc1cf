package dev.warden.protocol;

/** Wire record ClientInfo (jute). */
public record ClientInfo(String authScheme, String user) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(authScheme);
        out.writeString(user);
    }

    public static ClientInfo read(JuteReader in) {
        return new ClientInfo(in.readString(), in.readString());
    }
}
