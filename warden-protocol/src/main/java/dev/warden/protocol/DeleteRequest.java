package dev.warden.protocol;

/** Wire record DeleteRequest (jute). */
public record DeleteRequest(String path, int version) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeInt(version);
    }

    public static DeleteRequest read(JuteReader in) {
        return new DeleteRequest(in.readString(), in.readInt());
    }
}
