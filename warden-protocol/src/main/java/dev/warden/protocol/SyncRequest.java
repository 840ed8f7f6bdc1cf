package dev.warden.protocol;

/** Wire record SyncRequest (jute). */
public record SyncRequest(String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
    }

    public static SyncRequest read(JuteReader in) {
        return new SyncRequest(in.readString());
    }
}
