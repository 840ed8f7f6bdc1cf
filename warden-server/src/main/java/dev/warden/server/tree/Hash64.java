package dev.warden.server.tree;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A fast, well-mixed 64-bit hash for the tree digest. Not cryptographic: the digest is there to
 * catch replicas that diverged by accident, not an adversary. Fixed byte order, so every
 * platform computes the same values.
 */
final class Hash64 {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long K1 = 0x9E3779B97F4A7C15L;
    private static final long K2 = 0xC2B2AE3D27D4EB4FL;

    private Hash64() {
    }

    /** A bijective finalizer: every input bit affects every output bit. */
    static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    /** Folds one more value into a running hash; order matters. */
    static long step(long hash, long value) {
        return mix(hash * K1 + value + K2);
    }

    static long of(byte[] bytes) {
        long h = K2 ^ (bytes.length * K1);
        int i = 0;
        for (; i + 8 <= bytes.length; i += 8) {
            h = Long.rotateLeft(h ^ ((long) LONGS.get(bytes, i) * K1), 29) * K2;
        }
        long tail = 0;
        for (int shift = 0; i < bytes.length; i++, shift += 8) {
            tail |= (bytes[i] & 0xffL) << shift;
        }
        return mix(h ^ tail * K2);
    }

    static long of(String s) {
        long h = K1 ^ s.length();
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return mix(h);
    }
}
