package dev.warden.protocol;

/** Wire record ExistsRequest (jute). */
public record ExistsRequest(String path, boolean watch) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBool(watch);
    }

    public static ExistsRequest read(JuteReader in) {
        return new ExistsRequest(in.readString(), in.readBool());
    }
}
