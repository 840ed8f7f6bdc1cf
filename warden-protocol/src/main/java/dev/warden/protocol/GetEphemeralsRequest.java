package dev.warden.protocol;

/** Wire record GetEphemeralsRequest (jute). */
public record GetEphemeralsRequest(String prefixPath) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(prefixPath);
    }

    public static GetEphemeralsRequest read(JuteReader in) {
        return new GetEphemeralsRequest(in.readString());
    }
}
