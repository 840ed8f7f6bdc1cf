package dev.warden.protocol;

import static dev.warden.protocol.EdgeSamples.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.zookeeper.proto.CreateResponse;
import org.junit.jupiter.api.Test;

/**
 * Bytes written out by hand from WIRE-PROTOCOL.md, independent of any encoder. Each golden is
 * checked three ways: we write it, we read it back to the same value, and Apache writes it too.
 */
class GoldenBytesTest {
    private static final String OPEN_ACL = "00000001 0000001f 00000005 776f726c64 00000006 616e796f6e65";
    private static final String ZERO_STAT = "00".repeat(68);

    private static void assertGolden(String hexWithSpaces, Record value) {
        String golden = hexWithSpaces.replace(" ", "");
        HexFormat hex = HexFormat.of();
        assertEquals(golden, hex.formatHex(value.toBytes()), "our encoding");
        assertEquals(golden, hex.formatHex(ApacheOracle.encode(value)), "Apache's encoding");
        JuteReader in = new JuteReader(hex.parseHex(golden));
        assertEquals(RecordCatalog.canonical(value), RecordCatalog.canonical(RecordCatalog.read(value.getClass(), in)));
        in.expectEnd(value.getClass().getSimpleName());
    }

    @Test
    void newClientConnectRequestIs45Bytes() {
        ConnectRequest request = new ConnectRequest(0, 0, 30_000, 0, new byte[16], false, true);
        assertEquals(45, request.toBytes().length);
        assertGolden("00000000 0000000000000000 00007530 0000000000000000 00000010" + " 00".repeat(16) + " 00", request);
    }

    @Test
    void oldClientConnectRequestOmitsReadOnlyAndIs44Bytes() {
        ConnectRequest request = new ConnectRequest(0, 0x500000007L, 10_000, 0x0100000000000001L, new byte[16], false, false);
        assertEquals(44, request.toBytes().length);
        assertGolden("00000000 0000000500000007 00002710 0100000000000001 00000010" + " 00".repeat(16), request);
    }

    @Test
    void connectResponseWithAndWithoutReadOnly() {
        byte[] password = new byte[16];
        Arrays.fill(password, (byte) 0xa5);
        String common = "00000000 00007530 0100000000000001 00000010" + " a5".repeat(16);
        assertGolden(common + " 01", new ConnectResponse(0, 30_000, 0x0100000000000001L, password, true, true));
        assertGolden(common, new ConnectResponse(0, 30_000, 0x0100000000000001L, password, false, false));
    }

    @Test
    void expiredSessionConnectResponse() {
        assertGolden("00000000 00000000 0000000000000000 00000010" + " 00".repeat(16) + " 00",
                new ConnectResponse(0, 0, 0, new byte[16], false, true));
    }

    @Test
    void pingRequestAndReplyHeaders() {
        assertGolden("fffffffe 0000000b", new RequestHeader(OpCode.XID_PING, OpCode.PING));
        assertGolden("fffffffe 0000000100000005 00000000", new ReplyHeader(OpCode.XID_PING, 0x100000005L, 0));
    }

    @Test
    void notificationHeaderAndEvent() {
        assertGolden("ffffffff ffffffffffffffff 00000000", new ReplyHeader(-1, -1L, 0));
        assertGolden("00000003 00000003 00000002 2f61",
                new WatcherEvent(EventType.NODE_DATA_CHANGED, EventType.STATE_SYNC_CONNECTED, "/a"));
    }

    @Test
    void createRequestWithOpenAcl() {
        assertGolden("00000002 2f61 00000002 6869 " + OPEN_ACL + " 00000001",
                new CreateRequest("/a", bytes("hi"), Perms.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL.flags()));
    }

    @Test
    void nullAndEmptyBuffersDiffer() {
        assertGolden("ffffffff " + ZERO_STAT, new GetDataResponse(null, Stat.ZERO));
        assertGolden("00000000 " + ZERO_STAT, new GetDataResponse(new byte[0], Stat.ZERO));
    }

    @Test
    void nullAndEmptyStringsAndVectorsDiffer() {
        assertGolden("ffffffff", new GetChildrenResponse(null));
        assertGolden("00000000", new GetChildrenResponse(List.of()));
        assertGolden("00000002 00000000 ffffffff", new GetChildrenResponse(Arrays.asList("", null)));
        assertGolden("ffffffff 00000000", new ClientInfo(null, ""));
    }

    @Test
    void statIsElevenFieldsIn68Bytes() {
        assertGolden("0000000100000001 0000000100000002 0000018bcfe56800 0000018bcfe569f4 00000003 00000004 00000005"
                + " 123456789abcdef0 00000006 00000007 0000000100000003", EdgeSamples.STAT);
    }

    @Test
    void nonAsciiStringsAreUtf8WithByteLength() {
        // '/' 'é' (c3 a9) '€' (e2 82 ac) '中' (e4 b8 ad) U+0000 as a single zero byte.
        assertGolden("0000000a 2f c3a9 e282ac e4b8ad 00", new SyncResponse("/\u00e9\u20ac\u4e2d\u0000"));
    }

    @Test
    void deleteContainerWritesItsPathAsABufferWithTheSameBytesAsAString() {
        assertGolden("00000002 2f61", new DeleteContainerRequest("/a"));
    }

    @Test
    void authPacket() {
        assertGolden("00000000 00000006 646967657374 00000003 753a70", new AuthPacket(0, "digest", bytes("u:p")));
    }

    @Test
    void multiRequestCreateThenDelete() {
        assertGolden("00000001 00 ffffffff 00000002 2f61 ffffffff " + OPEN_ACL + " 00000000"
                        + " 00000002 00 ffffffff 00000002 2f61 ffffffff"
                        + " ffffffff 01 ffffffff",
                new MultiRequest(List.of(
                        new MultiRequest.Op(OpCode.CREATE, new CreateRequest("/a", null, Perms.OPEN_ACL_UNSAFE, 0)),
                        new MultiRequest.Op(OpCode.DELETE, new DeleteRequest("/a", -1)))));
    }

    @Test
    void emptyMultiIsJustTheTerminator() {
        assertGolden("ffffffff 01 ffffffff", new MultiRequest(List.of()));
        assertGolden("ffffffff 01 ffffffff", new MultiResponse(List.of()));
    }

    @Test
    void successfulMultiResponse() {
        assertGolden("00000001 00 00000000 00000002 2f61 00000002 00 00000000 0000000d 00 00000000 ffffffff 01 ffffffff",
                new MultiResponse(List.of(
                        new MultiResponse.Result(OpCode.CREATE, 0, new dev.warden.protocol.CreateResponse("/a")),
                        new MultiResponse.Result(OpCode.DELETE, 0, null),
                        new MultiResponse.Result(OpCode.CHECK, 0, null))));
    }

    @Test
    void abortedMultiResponseRepeatsEachErrorInItsBody() {
        // Sub-ops before the failure report OK, the failure its code (-101 NONODE), later ones -2.
        assertGolden("ffffffff 00 00000000 00000000 ffffffff 00 ffffff9b ffffff9b ffffffff 00 fffffffe fffffffe"
                        + " ffffffff 01 ffffffff",
                new MultiResponse(List.of(MultiResponse.Result.error(0), MultiResponse.Result.error(-101),
                        MultiResponse.Result.error(-2))));
    }

    /**
     * A deliberate, documented divergence: Apache writes each UTF-16 char on its own, so a
     * character outside the BMP becomes two 3-byte surrogate encodings that its own reader cannot
     * decode. We write standard UTF-8, which Apache's reader decodes correctly. Paths cannot hold
     * such characters, so only free-form strings (ACL ids, auth schemes) could ever differ.
     */
    @Test
    void supplementaryCharactersUseStandardUtf8WhichApacheReadsBack() {
        String emoji = "\ud83d\ude00";
        dev.warden.protocol.CreateResponse ours = new dev.warden.protocol.CreateResponse(emoji);
        assertEquals("00000004f09f9880", HexFormat.of().formatHex(ours.toBytes()));
        assertEquals("00000006eda0bdedb880", HexFormat.of().formatHex(ApacheJute.encode(new CreateResponse(emoji))));
        assertEquals(emoji, ApacheJute.decode(ours.toBytes(), new CreateResponse()).getPath());
    }

    @Test
    void apacheSurrogateBytesDecodeAsApacheDecodesThem() {
        byte[] apacheBytes = ApacheJute.encode(new CreateResponse("a\ud83d\ude00\ud800"));
        String apacheReading = ApacheJute.decode(apacheBytes, new CreateResponse()).getPath();
        assertEquals(apacheReading, dev.warden.protocol.CreateResponse.read(new JuteReader(apacheBytes)).path());
        assertEquals(new String(Arrays.copyOfRange(apacheBytes, 4, apacheBytes.length), StandardCharsets.UTF_8),
                apacheReading);
    }
}
