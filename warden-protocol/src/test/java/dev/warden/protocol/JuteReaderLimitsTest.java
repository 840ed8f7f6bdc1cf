package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reader's bounds, one at a time, on inputs built by hand. */
class JuteReaderLimitsTest {
    private static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replace(" ", ""));
    }

    private static void assertRejected(Class<? extends Record> type, byte[] input) {
        assertNull(DecodeProbe.decode(type, input), type.getSimpleName() + " accepted " + HexFormat.of().formatHex(input));
    }

    @Test
    void vectorCountOfIntMaxWithEightBytesLeftFailsFastWithoutAllocating() {
        byte[] input = hex("7fffffff 00000000 00000000");
        assertTimeoutPreemptively(Duration.ofSeconds(1), () -> {
            for (Class<? extends Record> type : List.of(GetChildrenResponse.class, GetEphemeralsResponse.class,
                    WhoAmIResponse.class, GetACLResponse.class, GetChildren2Response.class)) {
                assertRejected(type, input);
            }
            assertThrows(ProtocolException.class, () -> new JuteReader(input).readStringList());
            assertThrows(ProtocolException.class, () -> new JuteReader(input).readList(Acl::read));
        });
    }

    @Test
    void vectorCountIsCheckedAgainstTheMinimumElementSize() {
        // Two strings need at least 8 bytes; 7 are left.
        assertThrows(ProtocolException.class, () -> new JuteReader(hex("00000002 00000000 000000")).readStringList());
        assertEquals(List.of("", ""), new JuteReader(hex("00000002 00000000 00000000")).readStringList());
    }

    @Test
    void negativeLengthsOtherThanMinusOneAreRejected() {
        for (String length : List.of("fffffffe", "80000000")) {
            assertThrows(ProtocolException.class, () -> new JuteReader(hex(length)).readBuffer());
            assertThrows(ProtocolException.class, () -> new JuteReader(hex(length)).readString());
            assertThrows(ProtocolException.class, () -> new JuteReader(hex(length)).readStringList());
            assertThrows(ProtocolException.class, () -> new JuteReader(hex(length)).readList(Id::read));
        }
    }

    @Test
    void minusOneIsNullForEveryLengthPrefixedType() {
        assertNull(new JuteReader(hex("ffffffff")).readBuffer());
        assertNull(new JuteReader(hex("ffffffff")).readString());
        assertNull(new JuteReader(hex("ffffffff")).readStringList());
        assertNull(new JuteReader(hex("ffffffff")).readList(Id::read));
    }

    @Test
    void lengthsAboveTheFieldLimitAreRejectedEvenWhenTheBytesArePresent() {
        byte[] input = ByteBuffer.allocate(4 + 9).putInt(9).array();
        JuteReader small = new JuteReader(input, 0, input.length, 8);
        assertThrows(ProtocolException.class, small::readBuffer);
        JuteReader exact = new JuteReader(input, 0, input.length, 9);
        assertArrayEquals(new byte[9], exact.readBuffer());
    }

    @Test
    void defaultFieldLimitIsJuteMaxBufferPlusExtraSize() {
        int limit = JuteReader.DEFAULT_MAX_FIELD_BYTES;
        assertEquals(2 * 0xfffff, limit);
        byte[] atLimit = ByteBuffer.allocate(4 + limit).putInt(limit).array();
        assertEquals(limit, new JuteReader(atLimit).readBuffer().length);
        byte[] overLimit = ByteBuffer.allocate(4 + limit + 1).putInt(limit + 1).array();
        assertThrows(ProtocolException.class, () -> new JuteReader(overLimit).readBuffer());
    }

    @Test
    void hugeLengthWithFewBytesLeftFailsWithoutAllocating() {
        assertRejected(GetDataResponse.class, hex("001ffffe 00000000"));
        assertRejected(SetWatches.class, hex("0000000000000000 00000001 7ffffff0"));
        assertRejected(MultiRequest.class, hex("00000001 00 ffffffff 001ffffe 2f"));
    }

    @Test
    void aSliceIsReadWithoutTouchingTheBytesAroundIt() {
        byte[] backing = hex("ff 00000001 41 ff ff");
        JuteReader in = new JuteReader(backing, 1, 5, JuteReader.DEFAULT_MAX_FIELD_BYTES);
        assertEquals("A", in.readString());
        assertThrows(ProtocolException.class, in::readByte);
        JuteReader cut = new JuteReader(backing, 1, 4, JuteReader.DEFAULT_MAX_FIELD_BYTES);
        assertThrows(ProtocolException.class, cut::readString);
    }

    @Test
    void sliceBoundsThatOverflowAreRejected() {
        byte[] backing = new byte[8];
        assertThrows(IllegalArgumentException.class,
                () -> new JuteReader(backing, 1, Integer.MAX_VALUE, JuteReader.DEFAULT_MAX_FIELD_BYTES));
        assertThrows(IllegalArgumentException.class,
                () -> new JuteReader(backing, Integer.MAX_VALUE, 2, JuteReader.DEFAULT_MAX_FIELD_BYTES));
        assertThrows(IllegalArgumentException.class,
                () -> new JuteReader(backing, -1, 2, JuteReader.DEFAULT_MAX_FIELD_BYTES));
    }

    @Test
    void multiWithoutTerminatorOrWithUnknownTypesIsRejected() {
        assertRejected(MultiRequest.class, hex("00000002 00 ffffffff 00000002 2f61 ffffffff"));
        assertRejected(MultiRequest.class, hex("00000003 00 ffffffff 00000002 2f61 00 ffffffff 01 ffffffff"));
        assertRejected(MultiResponse.class, hex("0000000c 00 00000000 ffffffff 01 ffffffff"));
        assertRejected(MultiResponse.class, hex("00000002 00 00000000"));
    }

    @Test
    void anyNonZeroBooleanByteIsTrue() {
        assertEquals(new ExistsRequest("/", true), ExistsRequest.read(new JuteReader(hex("00000001 2f 80"))));
        assertEquals(new MultiRequest(List.of()), MultiRequest.read(new JuteReader(hex("ffffffff 02 ffffffff"))));
    }

    @Test
    void trailingBytesAreReportedByExpectEnd() {
        JuteReader in = new JuteReader(hex("00000000 00000001 ff"));
        assertEquals(new RequestHeader(0, 1), RequestHeader.read(in));
        assertThrows(ProtocolException.class, () -> in.expectEnd("header"));
    }
}
