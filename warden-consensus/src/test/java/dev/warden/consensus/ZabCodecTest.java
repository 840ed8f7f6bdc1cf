package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.warden.protocol.ProtocolException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ZabCodecTest {

    @Property(tries = 2000)
    void everyMessageSurvivesARoundTrip(@ForAll("messages") ZabMessage message) {
        byte[] frame = ZabCodec.encode(message);
        assertEquals(ZabCodec.encodedSize(message), frame.length);
        ZabMessage decoded = ZabCodec.decode(frame);
        assertEquals(normalize(message), normalize(decoded));
        assertArrayEquals(frame, ZabCodec.encode(decoded));
    }

    @Property(tries = 300)
    void decodesFromTheMiddleOfALargerArray(@ForAll("messages") ZabMessage message) {
        byte[] frame = ZabCodec.encode(message);
        byte[] padded = new byte[frame.length + 7];
        System.arraycopy(frame, 0, padded, 3, frame.length);
        assertEquals(normalize(message), normalize(ZabCodec.decode(padded, 3, frame.length)));
    }

    @Property(tries = 500)
    void everyTruncationIsAProtocolError(@ForAll("messages") ZabMessage message) {
        byte[] frame = ZabCodec.encode(message);
        for (int length = 0; length < frame.length; length++) {
            int cut = length;
            assertThrows(ProtocolException.class, () -> ZabCodec.decode(frame, 0, cut));
        }
    }

    @Property(tries = 2000)
    void randomBytesDecodeOrFailWithAProtocolErrorOnly(@ForAll byte[] garbage) {
        try {
            ZabMessage message = ZabCodec.decode(garbage);
            assertArrayEquals(garbage, ZabCodec.encode(message));
        } catch (ProtocolException expected) {
            // the only failure allowed
        }
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] frame = ZabCodec.encode(new ZabMessage.Ack(5));
        byte[] longer = Arrays.copyOf(frame, frame.length + 1);
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(longer));
    }

    @Test
    void unknownTypeAndBadEnumValuesAreRejected() {
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(new byte[] {99, 0, 0, 0, 0, 0, 0, 0, 0}));
        byte[] vote = ZabCodec.encode(new ZabMessage.Vote(1, 2, 3, 4, Role.LOOKING));
        vote[1 + 4 * 8] = 9; // the role byte
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(vote));
        byte[] info = ZabCodec.encode(new ZabMessage.FollowerInfo(1, 2, true));
        info[info.length - 1] = 2;
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(info));
    }

    @Test
    void hugeLengthsAndCountsFailBeforeAllocating() {
        // Claims of 2^31-1 bytes/entries in a tiny frame: must fail on the length check, not OOM.
        byte[] snap = {7, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2};
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(snap));
        byte[] propose = {11, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0};
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(propose));
        byte[] negative = {11, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xfe};
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(negative));
        byte[] nullPayload = {21, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(nullPayload));
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(new byte[0]));
        assertThrows(ProtocolException.class, () -> ZabCodec.decode(new byte[4], 2, 3));
    }

    @Test
    void aLargeProposeIsEncodedIntoOneExactlySizedArray() {
        List<Entry> entries = new ArrayList<>();
        for (int i = 1; i <= 10_000; i++) {
            entries.add(new Entry(Zxid.of(3, i), new byte[100]));
        }
        byte[] frame = ZabCodec.encode(new ZabMessage.Propose(entries));
        assertEquals(1 + 4 + 10_000 * (8 + 4 + 100), frame.length);
        ZabMessage.Propose decoded = (ZabMessage.Propose) ZabCodec.decode(frame);
        assertEquals(10_000, decoded.entries().size());
        assertEquals(Zxid.of(3, 10_000), decoded.entries().get(9_999).zxid());
    }

    @Test
    void theGeneratorCoversEveryMessageType() {
        Set<Class<?>> generated = messages().sampleStream().limit(3000).map(Object::getClass)
                .collect(Collectors.toSet());
        Set<Class<?>> all = Arrays.stream(ZabMessage.class.getPermittedSubclasses()).collect(Collectors.toSet());
        assertEquals(all, generated);
    }

    @Provide
    Arbitrary<ZabMessage> messages() {
        Arbitrary<Long> num = Arbitraries.longs();
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
        Arbitrary<List<Entry>> entries = Combinators.combine(num, bytes).as(Entry::new).list().ofMaxSize(8);
        return Arbitraries.oneOf(List.of(
                Combinators.combine(num, num, num, num, Arbitraries.of(Role.class), num).as(ZabMessage.Vote::new),
                Combinators.combine(num, num, Arbitraries.of(true, false)).as(ZabMessage.FollowerInfo::new),
                num.map(ZabMessage.LeaderInfo::new),
                Combinators.combine(num, num).as(ZabMessage.AckEpoch::new),
                num.map(ZabMessage.Diff::new),
                num.map(ZabMessage.Trunc::new),
                Combinators.combine(num, bytes).as(ZabMessage.Snap::new),
                Combinators.combine(num, num, configurations()).as(ZabMessage.NewLeader::new),
                num.map(ZabMessage.AckNewLeader::new),
                num.map(ZabMessage.UpToDate::new),
                entries.map(ZabMessage.Propose::new),
                num.map(ZabMessage.Ack::new),
                num.map(ZabMessage.Commit::new),
                num.map(ZabMessage.LeaderDurable::new),
                entries.map(ZabMessage.Inform::new),
                Combinators.combine(num, num).as(ZabMessage.Ping::new),
                num.map(ZabMessage.PingAck::new),
                num.map(ZabMessage.EpochBump::new),
                num.map(ZabMessage.EpochBumpAck::new),
                num.map(ZabMessage.SyncRequest::new),
                Combinators.combine(num, num).as(ZabMessage.SyncReply::new),
                bytes.map(ZabMessage.AppData::new),
                Combinators.combine(num, bytes).as(ZabMessage.Relay::new)));
    }

    /** Configurations of both quorum kinds, ids from a small range so members overlap. */
    static Arbitrary<Configurations> configurations() {
        Arbitrary<Configuration> one = Combinators.combine(Arbitraries.longs().between(0, 1L << 40),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(16), Arbitraries.integers().between(1, 7),
                Arbitraries.integers().between(0, 2), Arbitraries.of(true, false), Arbitraries.longs().between(0, 3))
                .as((version, data, voters, observers, hierarchical, weight) -> {
                    java.util.Set<Long> voterIds = new java.util.HashSet<>();
                    for (long id = 1; id <= voters; id++) {
                        voterIds.add(id);
                    }
                    java.util.Set<Long> observerIds = new java.util.HashSet<>();
                    for (long id = voters + 1; id <= voters + observers; id++) {
                        observerIds.add(id);
                    }
                    QuorumVerifier quorum = hierarchical
                            ? new HierarchicalQuorum(java.util.Map.of(1L, voterIds),
                                    java.util.Map.of((long) voters, voters == 1 ? weight + 1 : weight), observerIds)
                            : new MajorityQuorum(voterIds, observerIds);
                    return new Configuration(version, quorum, data);
                });
        return Combinators.combine(one, one.list().ofMaxSize(2)).as((committed, logged) -> {
            List<Configuration> ordered = new ArrayList<>();
            long version = committed.version();
            for (Configuration c : logged) {
                version += 1 + Math.abs(c.version() % 1000);
                ordered.add(c.withVersion(version));
            }
            return new Configurations(committed, ordered);
        });
    }

    /** Records compare byte arrays by identity; this turns a message into comparable values. */
    static Object normalize(Object value) {
        if (value instanceof byte[] array) {
            return Arrays.toString(array);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ZabCodecTest::normalize).toList();
        }
        if (value instanceof Record record) {
            List<Object> parts = new ArrayList<>();
            parts.add(record.getClass().getSimpleName());
            for (RecordComponent component : record.getClass().getRecordComponents()) {
                try {
                    parts.add(normalize(component.getAccessor().invoke(record)));
                } catch (ReflectiveOperationException e) {
                    fail(e);
                }
            }
            return parts;
        }
        return value;
    }
}
