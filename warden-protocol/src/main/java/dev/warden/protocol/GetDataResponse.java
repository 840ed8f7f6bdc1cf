package dev.warden.protocol;

/** Wire record GetDataResponse (jute). */
public record GetDataResponse(byte[] data, Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeBuffer(data);
        stat.writeTo(out);
    }

    public static GetDataResponse read(JuteReader in) {
        return new GetDataResponse(in.readBuffer(), Stat.read(in));
    }
}
