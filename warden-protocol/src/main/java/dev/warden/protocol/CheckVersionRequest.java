package dev.warden.protocol;

/** Wire record CheckVersionRequest (jute). */
public record CheckVersionRequest(String path, int version) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeInt(version);
    }

    public static CheckVersionRequest read(JuteReader in) {
        return new CheckVersionRequest(in.readString(), in.readInt());
    }
}
