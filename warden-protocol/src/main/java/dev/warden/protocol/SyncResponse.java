package dev.warden.protocol;

/** Wire record SyncResponse (jute). */
public record SyncResponse(String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
    }

    public static SyncResponse read(JuteReader in) {
        return new SyncResponse(in.readString());
    }
}
