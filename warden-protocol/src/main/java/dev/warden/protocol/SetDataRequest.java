package dev.warden.protocol;

/** Wire record SetDataRequest (jute). */
public record SetDataRequest(String path, byte[] data, int version) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBuffer(data);
        out.writeInt(version);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringSizeHint(path) + JuteWriter.bufferSizeHint(data) + 4;
    }

    public static SetDataRequest read(JuteReader in) {
        return new SetDataRequest(in.readString(), in.readBuffer(), in.readInt());
    }
}
