package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Malformed input against every record decoder, multi included: random bytes, bit flips,
 * truncations and hostile length fields may only ever produce a {@link ProtocolException},
 * with allocation bounded by the input size.
 */
class MalformedInputTest {
    private static final List<Class<? extends Record>> RECORD_CLASSES = RecordCatalog.recordClasses();
    /** Values that, written over a length or count, probe each bound of the reader. */
    private static final int[] HOSTILE_INTS = {-2, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7ffffff0,
        JuteReader.DEFAULT_MAX_FIELD_BYTES, JuteReader.DEFAULT_MAX_FIELD_BYTES + 1, 0x10000, 1 << 24};

    /** A record type and bytes to decode as that type. */
    record Input(Class<? extends Record> type, byte[] bytes) {
        @Override
        public String toString() {
            return type.getSimpleName() + " " + java.util.HexFormat.of().formatHex(bytes);
        }
    }

    @Provide
    Arbitrary<Class<? extends Record>> anyDecoder() {
        return Arbitraries.of(RECORD_CLASSES);
    }

    @Provide
    Arbitrary<Record> anyRecord() {
        return anyDecoder().flatMap(type -> Arbitraries.randomValue(random -> new RandomRecords(random).any(type)));
    }

    /** Raw noise, plus sequences of small and edge ints, which get further into a decoder. */
    @Provide
    Arbitrary<byte[]> junk() {
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(96);
        Arbitrary<byte[]> ints = Arbitraries.oneOf(Arbitraries.integers().between(-3, 20), Arbitraries.of(-1, 0, 1, 15),
                        Arbitraries.integers())
                .list().ofMaxSize(24)
                .map(values -> {
                    ByteBuffer buffer = ByteBuffer.allocate(values.size() * 4);
                    values.forEach(buffer::putInt);
                    return buffer.array();
                });
        return Arbitraries.oneOf(noise, ints);
    }

    @Property(tries = 5000)
    void randomBytesFailOnlyWithProtocolException(@ForAll("anyDecoder") Class<? extends Record> type,
                                                  @ForAll("junk") byte[] input) {
        DecodeProbe.decode(type, input);
    }

    /** Flips a few bits of a valid encoding; sometimes decodes it as another record type too. */
    @Provide
    Arbitrary<Input> bitFlipped() {
        return anyRecord().flatMap(value -> Arbitraries.randomValue(random -> {
            byte[] bytes = value.toBytes();
            int flips = bytes.length == 0 ? 0 : 1 + random.nextInt(3);
            for (int i = 0; i < flips; i++) {
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
            }
            Class<? extends Record> type = random.nextInt(4) == 0
                    ? RECORD_CLASSES.get(random.nextInt(RECORD_CLASSES.size())) : value.getClass();
            return new Input(type, bytes);
        }));
    }

    @Property(tries = 5000)
    void bitFlipsFailOnlyWithProtocolException(@ForAll("bitFlipped") Input input) {
        DecodeProbe.decode(input.type(), input.bytes());
    }

    @Property(tries = 1000)
    void everyTruncationFailsWithProtocolException(@ForAll("anyRecord") Record value) {
        byte[] bytes = value.toBytes();
        for (int length = 0; length < bytes.length; length++) {
            Record decoded = DecodeProbe.decode(value.getClass(), Arrays.copyOf(bytes, length));
            if (isHandshakeCutBeforeOptionalReadOnly(value, length)) {
                // Cut just before the optional byte is exactly what a pre-3.4 peer sends.
                assertNotNull(decoded, "handshake without its readOnly byte must decode");
            } else {
                assertNull(decoded, "a prefix of " + length + " bytes decoded as " + decoded);
            }
        }
    }

    private static boolean isHandshakeCutBeforeOptionalReadOnly(Record value, int length) {
        boolean present = value instanceof ConnectRequest request && request.readOnlyPresent()
                || value instanceof ConnectResponse response && response.readOnlyPresent();
        return present && length == value.toBytes().length - 1;
    }

    @Property(tries = 500)
    void hostileIntAtEveryOffsetFailsOnlyWithProtocolException(@ForAll("anyRecord") Record value) {
        byte[] bytes = value.toBytes();
        for (int offset = 0; offset + 4 <= bytes.length; offset++) {
            for (int hostile : HOSTILE_INTS) {
                byte[] mutated = bytes.clone();
                ByteBuffer.wrap(mutated).putInt(offset, hostile);
                DecodeProbe.decode(value.getClass(), mutated);
            }
            byte[] lengthOneTooLong = bytes.clone();
            ByteBuffer.wrap(lengthOneTooLong).putInt(offset, bytes.length - offset - 3);
            DecodeProbe.decode(value.getClass(), lengthOneTooLong);
        }
    }

    /** Whatever the mutation, decoding bytes twice gives the same answer: no hidden state. */
    @Property(tries = 1000)
    void decodingIsDeterministic(@ForAll("bitFlipped") Input input) {
        Record first = DecodeProbe.decode(input.type(), input.bytes());
        Record second = DecodeProbe.decode(input.type(), input.bytes());
        assertEquals(RecordCatalog.canonical(first), RecordCatalog.canonical(second));
    }

    @Example
    void allocationIsReallyMeasured() {
        assertTrue(DecodeProbe.allocationIsMeasured(), "thread allocation accounting is off; bounds unchecked");
    }
}
