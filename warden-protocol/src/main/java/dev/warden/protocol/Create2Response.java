package dev.warden.protocol;

/** Wire record Create2Response (jute). */
public record Create2Response(String path, Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        stat.writeTo(out);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringSizeHint(path) + Stat.BYTES;
    }

    public static Create2Response read(JuteReader in) {
        return new Create2Response(in.readString(), Stat.read(in));
    }
}
