package dev.warden.protocol;

/** Wire record DeleteContainerRequest (jute). */
public record DeleteContainerRequest(String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
    }

    public static DeleteContainerRequest read(JuteReader in) {
        return new DeleteContainerRequest(in.readString());
    }
}
