package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.jute.BinaryOutputArchive;
import org.apache.zookeeper.proto.CreateResponse;

/** Random values: our writer and reader round-trip them and agree with Apache's archives. */
class RecordPropertiesTest {
    private static final List<Class<? extends Record>> RECORD_CLASSES = RecordCatalog.recordClasses();

    @Provide
    Arbitrary<Record> anyRecord() {
        return Arbitraries.of(RECORD_CLASSES)
                .flatMap(type -> Arbitraries.randomValue(random -> new RandomRecords(random).any(type)));
    }

    @Property(tries = 3000)
    void roundTripsThroughOurWriterAndReader(@ForAll("anyRecord") Record value) {
        JuteReader in = new JuteReader(value.toBytes());
        Record decoded = RecordCatalog.read(value.getClass(), in);
        in.expectEnd(value.getClass().getSimpleName());
        assertEquals(RecordCatalog.canonical(value), RecordCatalog.canonical(decoded));
    }

    @Property(tries = 3000)
    void encodesExactlyAsApacheDoes(@ForAll("anyRecord") Record value) {
        assertEquals(HexFormat.of().formatHex(ApacheOracle.encode(value)), HexFormat.of().formatHex(value.toBytes()));
        ApacheMirror.assertSameValues(value, ApacheOracle.decode(value.getClass(), value.toBytes()));
    }

    /**
     * A size hint never exceeds what is written for ASCII strings (so a writer sized by it never
     * over-allocates by more than the hint's slack), and a record that overrides the default hint
     * gets it exact; non-ASCII strings may take more bytes than hinted.
     */
    @Property(tries = 3000)
    void sizeHintsAreExactForRecordsThatGiveOne(@ForAll("anyRecord") Record value) throws NoSuchMethodException {
        boolean ownHint = value.getClass().getMethod("sizeHintBytes").getDeclaringClass() == value.getClass();
        int written = value.toBytes().length;
        if (ownHint && value.toString().chars().allMatch(c -> c < 0x80)) {
            assertEquals(written, value.sizeHintBytes(), value::toString);
        } else if (ownHint) {
            assertTrue(value.sizeHintBytes() <= written, value::toString);
        }
    }

    @Provide
    Arbitrary<String> bmpWithoutSurrogates() {
        return Arbitraries.strings().withCharRange('\u0000', '\ud7ff').withCharRange('\ue000', '\uffff').ofMaxLength(64);
    }

    /** jqwik shrinks these, so a mismatch comes back as the smallest offending string. */
    @Property(tries = 2000)
    void stringsInsideTheBmpEncodeAsApacheDoes(@ForAll("bmpWithoutSurrogates") String text) {
        byte[] ours = new dev.warden.protocol.CreateResponse(text).toBytes();
        assertArrayEquals(ApacheJute.encode(new CreateResponse(text)), ours);
        assertEquals(text, new JuteReader(ours).readString());
    }

    /** Any Java string, surrogates included: Apache's reader sees what standard UTF-8 carries. */
    @Property(tries = 2000)
    void anyStringReadsBackInApacheAsStandardUtf8(@ForAll String text) {
        byte[] ours = new dev.warden.protocol.CreateResponse(text).toBytes();
        String utf8RoundTrip = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        assertEquals(utf8RoundTrip, ApacheJute.decode(ours, new CreateResponse()).getPath());
        assertEquals(utf8RoundTrip, new JuteReader(ours).readString());
    }

    @Property(tries = 2000)
    void primitivesEncodeAsApacheDoes(@ForAll int number, @ForAll long wide, @ForAll boolean flag,
                                      @ForAll byte[] buffer) throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        BinaryOutputArchive archive = BinaryOutputArchive.getArchive(expected);
        archive.writeInt(number, "i");
        archive.writeLong(wide, "l");
        archive.writeBool(flag, "b");
        archive.writeBuffer(buffer, "buf");
        JuteWriter out = new JuteWriter(1).writeInt(number).writeLong(wide).writeBool(flag).writeBuffer(buffer);
        assertArrayEquals(expected.toByteArray(), out.toByteArray());

        JuteReader in = new JuteReader(out.toByteArray());
        assertEquals(number, in.readInt());
        assertEquals(wide, in.readLong());
        assertEquals(flag, in.readBool());
        assertArrayEquals(buffer, in.readBuffer());
        in.expectEnd("primitives");
    }
}
