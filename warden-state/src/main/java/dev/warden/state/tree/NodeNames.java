package dev.warden.state.tree;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Node names as the tree stores them (UTF-8 bytes) and their 64-bit hash. The hash is defined
 * on the UTF-8 bytes, so it is the same whether computed from a stored name or, without
 * allocating, from a segment of a path string (the common, all-ASCII case).
 */
final class NodeNames {
    static final byte[] EMPTY = new byte[0];
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private NodeNames() {
    }

    static byte[] encode(String path, int from, int to) {
        byte[] ascii = new byte[to - from];
        for (int i = from; i < to; i++) {
            char c = path.charAt(i);
            if (c >= 0x80) {
                return path.substring(from, to).getBytes(StandardCharsets.UTF_8);
            }
            ascii[i - from] = (byte) c;
        }
        return ascii;
    }

    static String decode(byte[] name) {
        return new String(name, StandardCharsets.UTF_8);
    }

    static long hash(byte[] name) {
        long h = FNV_OFFSET;
        for (byte b : name) {
            h = (h ^ (b & 0xff)) * FNV_PRIME;
        }
        return Hash64.mix(h ^ name.length);
    }

    /** Hash of path[from, to) as UTF-8; allocates only when the segment is not plain ASCII. */
    static long hash(String path, int from, int to) {
        long h = FNV_OFFSET;
        for (int i = from; i < to; i++) {
            char c = path.charAt(i);
            if (c >= 0x80) {
                return hash(encode(path, from, to));
            }
            h = (h ^ c) * FNV_PRIME;
        }
        return Hash64.mix(h ^ (to - from));
    }

    /** Whether path[from, to), encoded as UTF-8, equals name. */
    static boolean matches(String path, int from, int to, byte[] name) {
        if (to - from != name.length) {
            // An ASCII segment has as many bytes as chars; any other is compared encoded.
            return !isAscii(path, from, to) && Arrays.equals(encode(path, from, to), name);
        }
        for (int i = 0; i < name.length; i++) {
            char c = path.charAt(from + i);
            if (c >= 0x80) {
                return Arrays.equals(encode(path, from, to), name);
            }
            if (c != name[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAscii(String path, int from, int to) {
        for (int i = from; i < to; i++) {
            if (path.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The name's length in UTF-16 chars (what String.length() of the decoded name gives). */
    static int charLength(byte[] name) {
        int chars = 0;
        for (byte b : name) {
            int unsigned = b & 0xff;
            if ((unsigned & 0xc0) != 0x80) {
                // A lead byte starts a code point; a four-byte one needs a surrogate pair.
                chars += unsigned >= 0xf0 ? 2 : 1;
            }
        }
        return chars;
    }
}
