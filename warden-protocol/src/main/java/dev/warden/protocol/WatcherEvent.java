package dev.warden.protocol;

/** Wire record WatcherEvent (jute). */
public record WatcherEvent(int type, int state, String path) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(type);
        out.writeInt(state);
        out.writeString(path);
    }

    @Override
    public int sizeHintBytes() {
        return 8 + JuteWriter.stringSizeHint(path);
    }

    public static WatcherEvent read(JuteReader in) {
        return new WatcherEvent(in.readInt(), in.readInt(), in.readString());
    }
}
