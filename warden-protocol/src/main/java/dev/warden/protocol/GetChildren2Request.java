package dev.warden.protocol;

/** Wire record GetChildren2Request (jute). */
public record GetChildren2Request(String path, boolean watch) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBool(watch);
    }

    public static GetChildren2Request read(JuteReader in) {
        return new GetChildren2Request(in.readString(), in.readBool());
    }
}
