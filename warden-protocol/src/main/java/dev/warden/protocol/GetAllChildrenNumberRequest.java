package dev.warden.protocol;

/** Wire record GetAllChildrenNumberRequest (jute). */
public record GetAllChildrenNumberRequest(String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
    }

    public static GetAllChildrenNumberRequest read(JuteReader in) {
        return new GetAllChildrenNumberRequest(in.readString());
    }
}
