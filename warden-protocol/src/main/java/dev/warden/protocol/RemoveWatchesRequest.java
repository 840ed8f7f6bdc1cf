package dev.warden.protocol;

/** Wire record RemoveWatchesRequest (jute). */
public record RemoveWatchesRequest(String path, int type) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeInt(type);
    }

    public static RemoveWatchesRequest read(JuteReader in) {
        return new RemoveWatchesRequest(in.readString(), in.readInt());
    }
}
