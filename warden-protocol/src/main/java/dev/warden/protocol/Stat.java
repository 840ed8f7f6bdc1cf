package dev.warden.protocol;

/** Wire record Stat (jute). */
public record Stat(long czxid, long mzxid, long ctime, long mtime, int version, int cversion, int aversion, long ephemeralOwner, int dataLength, int numChildren, long pzxid) implements Record {
    /** The all-zero stat of the root node and of replies that carry no node. */
    public static final Stat ZERO = new Stat(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Encoded size: six longs and five ints. */
    public static final int BYTES = 6 * 8 + 5 * 4;

    @Override
    public void writeTo(JuteWriter out) {
        out.writeLong(czxid);
        out.writeLong(mzxid);
        out.writeLong(ctime);
        out.writeLong(mtime);
        out.writeInt(version);
        out.writeInt(cversion);
        out.writeInt(aversion);
        out.writeLong(ephemeralOwner);
        out.writeInt(dataLength);
        out.writeInt(numChildren);
        out.writeLong(pzxid);
    }

    @Override
    public int sizeHintBytes() {
        return Stat.BYTES;
    }

    public static Stat read(JuteReader in) {
        return new Stat(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readInt(), in.readInt(), in.readInt(), in.readLong(), in.readInt(), in.readInt(), in.readLong());
    }
}
