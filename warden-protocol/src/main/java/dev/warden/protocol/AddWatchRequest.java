package dev.warden.protocol;

/** Wire record AddWatchRequest (jute). */
public record AddWatchRequest(String path, int mode) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeInt(mode);
    }

    public static AddWatchRequest read(JuteReader in) {
        return new AddWatchRequest(in.readString(), in.readInt());
    }
}
