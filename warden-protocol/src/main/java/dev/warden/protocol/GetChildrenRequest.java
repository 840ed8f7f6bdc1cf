package dev.warden.protocol;

/** Wire record GetChildrenRequest (jute). */
public record GetChildrenRequest(String path, boolean watch) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBool(watch);
    }

    public static GetChildrenRequest read(JuteReader in) {
        return new GetChildrenRequest(in.readString(), in.readBool());
    }
}
