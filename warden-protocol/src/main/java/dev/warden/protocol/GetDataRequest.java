package dev.warden.protocol;

/** Wire record GetDataRequest (jute). */
public record GetDataRequest(String path, boolean watch) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBool(watch);
    }

    public static GetDataRequest read(JuteReader in) {
        return new GetDataRequest(in.readString(), in.readBool());
    }
}
