package dev.warden.protocol;

/** Wire record GetDataResponse (jute). */
public record GetDataResponse(byte[] data, Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeBuffer(data);
        stat.writeTo(out);
    }

    @Override
    public int sizeHintBytes() {
        return 4 + (data == null ? 0 : data.length) + Stat.BYTES;
    }

    public static GetDataResponse read(JuteReader in) {
        return new GetDataResponse(in.readBuffer(), Stat.read(in));
    }
}
