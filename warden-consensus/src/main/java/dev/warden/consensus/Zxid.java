package dev.warden.consensus;

/** A zxid is 64 bits: the leader's epoch in the high 32, a counter within the epoch in the low 32. */
public final class Zxid {
    /** The largest counter value; a leader that reaches it moves to the next epoch without an election. */
    public static final long MAX_COUNTER = 0xffff_ffffL;

    private Zxid() {
    }

    public static long of(long epoch, long counter) {
        if (epoch < 0 || epoch > 0x7fff_ffffL || counter < 0 || counter > MAX_COUNTER) {
            throw new IllegalArgumentException("zxid out of range: epoch " + epoch + ", counter " + counter);
        }
        return (epoch << 32) | counter;
    }

    public static long epoch(long zxid) {
        return zxid >>> 32;
    }

    public static long counter(long zxid) {
        return zxid & MAX_COUNTER;
    }

    public static String hex(long zxid) {
        return "0x" + Long.toHexString(zxid);
    }
}
