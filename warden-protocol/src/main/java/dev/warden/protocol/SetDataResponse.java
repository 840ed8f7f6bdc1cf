package dev.warden.protocol;

/** Wire record SetDataResponse (jute). */
public record SetDataResponse(Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        stat.writeTo(out);
    }

    @Override
    public int sizeHintBytes() {
        return Stat.BYTES;
    }

    public static SetDataResponse read(JuteReader in) {
        return new SetDataResponse(Stat.read(in));
    }
}
