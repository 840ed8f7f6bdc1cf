package dev.warden.sim;

import java.util.Arrays;

/**
 * The checkers' record of what a member applied: each entry's zxid and a hash of its payload,
 * in order. Not part of the replicated state; it travels with snapshots through
 * {@link SnapshotLedger} so a member restored from a snapshot still has its full history.
 */
final class AppliedHistory {
    private long[] zxids = new long[16];
    private int[] hashes = new int[16];
    private int size;

    AppliedHistory copy() {
        AppliedHistory copy = new AppliedHistory();
        copy.zxids = Arrays.copyOf(zxids, Math.max(16, size));
        copy.hashes = Arrays.copyOf(hashes, Math.max(16, size));
        copy.size = size;
        return copy;
    }

    void record(long zxid, byte[] payload) {
        if (size > 0 && zxid <= zxids[size - 1]) {
            throw new Checkers.Violation("entry " + Long.toHexString(zxid) + " applied out of order after "
                    + Long.toHexString(zxids[size - 1]));
        }
        if (size == zxids.length) {
            zxids = Arrays.copyOf(zxids, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        zxids[size] = zxid;
        hashes[size] = Arrays.hashCode(payload);
        size++;
    }

    int size() {
        return size;
    }

    long zxidAt(int index) {
        return zxids[index];
    }

    int hashAt(int index) {
        return hashes[index];
    }

    long lastZxid() {
        return size == 0 ? 0 : zxids[size - 1];
    }

    /** The number of applied entries with a zxid up to and including {@code zxid}. */
    int countUpTo(long zxid) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (zxids[mid] <= zxid) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    boolean contains(long zxid) {
        int index = countUpTo(zxid) - 1;
        return index >= 0 && zxids[index] == zxid;
    }
}
