package dev.warden.protocol;

/** Wire record CheckWatchesRequest (jute). */
public record CheckWatchesRequest(String path, int type) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeInt(type);
    }

    public static CheckWatchesRequest read(JuteReader in) {
        return new CheckWatchesRequest(in.readString(), in.readInt());
    }
}
