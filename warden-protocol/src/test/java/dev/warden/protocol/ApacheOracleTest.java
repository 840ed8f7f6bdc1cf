package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache ZooKeeper 3.9.5's generated jute classes as the oracle for every Warden record: the
 * same values must give the same bytes, and each side must decode the other's bytes to the
 * same values.
 */
class ApacheOracleTest {
    private static final int RANDOM_SAMPLES_PER_CLASS = 4;

    static Stream<Arguments> samples() {
        List<Record> values = new ArrayList<>(EdgeSamples.all());
        RandomRecords random = new RandomRecords(new Random(20261121L));
        for (Class<? extends Record> type : RecordCatalog.recordClasses()) {
            for (int i = 0; i < RANDOM_SAMPLES_PER_CLASS; i++) {
                values.add(random.any(type));
            }
        }
        return values.stream().map(value -> Arguments.of(
                value.getClass().getSimpleName() + " " + HexFormat.of().formatHex(value.toBytes()), value));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void ourBytesEqualApacheBytes(String name, Record value) {
        assertEquals(HexFormat.of().formatHex(ApacheOracle.encode(value)), HexFormat.of().formatHex(value.toBytes()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void apacheDecodesOurBytesToTheSameValues(String name, Record value) {
        ApacheMirror.assertSameValues(value, ApacheOracle.decode(value.getClass(), value.toBytes()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void weDecodeApacheBytesToTheSameValues(String name, Record value) {
        JuteReader in = new JuteReader(ApacheOracle.encode(value));
        Record decoded = RecordCatalog.read(value.getClass(), in);
        assertEquals(RecordCatalog.canonical(value), RecordCatalog.canonical(decoded));
        in.expectEnd(name);
    }

    @Test
    void everyRecordClassMirrorsEveryApacheField() {
        for (Class<? extends Record> type : RecordCatalog.recordClasses()) {
            if (type == MultiRequest.class || type == MultiResponse.class) {
                continue;
            }
            Set<String> ours = ApacheMirror.mirroredComponents(type).stream()
                    .map(ApacheMirror::apacheProperty).collect(Collectors.toCollection(TreeSet::new));
            Set<String> theirs = new TreeSet<>(ApacheMirror.apacheProperties(ApacheMirror.apacheClassOf(type)));
            assertEquals(theirs, ours, type.getSimpleName());
        }
    }

    @Test
    void catalogFindsEveryWireRecord() {
        List<String> names = RecordCatalog.recordClasses().stream().map(Class::getSimpleName).toList();
        // The 50 records of the skeleton; new ones may be added, none may silently vanish.
        assertTrue(names.size() >= 50, names.toString());
        assertTrue(names.containsAll(List.of("ConnectRequest", "ConnectResponse", "MultiRequest", "MultiResponse",
                "MultiHeader", "Stat", "Acl", "Id", "DeleteContainerRequest", "WhoAmIResponse")), names.toString());
    }

    @Test
    void create2SubOpSurvivesApacheDecodeAndEncode() {
        MultiRequest request = new MultiRequest(List.of(new MultiRequest.Op(OpCode.CREATE2,
                new CreateRequest("/n", "v".getBytes(StandardCharsets.UTF_8), Perms.OPEN_ACL_UNSAFE, 2))));
        assertArrayEquals(request.toBytes(), ApacheOracle.reencode(MultiRequest.class, request.toBytes()));
    }
}
