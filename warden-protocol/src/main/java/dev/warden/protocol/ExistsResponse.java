package dev.warden.protocol;

/** Wire record ExistsResponse (jute). */
public record ExistsResponse(Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        stat.writeTo(out);
    }

    @Override
    public int sizeHintBytes() {
        return Stat.BYTES;
    }

    public static ExistsResponse read(JuteReader in) {
        return new ExistsResponse(Stat.read(in));
    }
}
