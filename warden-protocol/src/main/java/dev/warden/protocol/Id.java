package dev.warden.protocol;

/** Wire record Id (jute). */
public record Id(String scheme, String id) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(scheme);
        out.writeString(id);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringSizeHint(scheme) + JuteWriter.stringSizeHint(id);
    }

    public static Id read(JuteReader in) {
        return new Id(in.readString(), in.readString());
    }
}
