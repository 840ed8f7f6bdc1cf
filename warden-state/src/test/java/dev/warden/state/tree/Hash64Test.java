package dev.warden.state.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The value hash behind the digest's content term: every bit, position and length counts. */
class Hash64Test {
    @Test
    void flippingAnyOneBitChangesTheHash() {
        Set<Long> seen = new HashSet<>();
        for (int length = 0; length <= 100; length++) {
            byte[] value = new byte[length];
            long plain = Hash64.of(value);
            seen.add(plain);
            for (int bit = 0; bit < length * 8; bit++) {
                value[bit / 8] ^= (byte) (1 << (bit % 8));
                seen.add(Hash64.of(value));
                assertNotEquals(plain, Hash64.of(value), "length " + length + ", bit " + bit);
                value[bit / 8] ^= (byte) (1 << (bit % 8));
            }
        }
        int hashed = 0;
        for (int length = 0; length <= 100; length++) {
            hashed += 1 + length * 8;
        }
        assertEquals(hashed, seen.size(), "no two of these inputs may collide");
    }

    @Test
    void lanesAreNotInterchangeable() {
        byte[] value = new byte[64];
        value[0] = 1;
        byte[] swapped = new byte[64];
        swapped[8] = 1; // the same word in the next lane
        byte[] nextBlock = new byte[64];
        nextBlock[32] = 1; // the same lane in the next block
        assertNotEquals(Hash64.of(value), Hash64.of(swapped));
        assertNotEquals(Hash64.of(value), Hash64.of(nextBlock));
        assertNotEquals(Hash64.of(swapped), Hash64.of(nextBlock));
    }

    @Test
    void trailingZerosChangeTheHash() {
        assertNotEquals(Hash64.of(new byte[31]), Hash64.of(new byte[32]));
        assertNotEquals(Hash64.of(new byte[32]), Hash64.of(new byte[33]));
    }
}
