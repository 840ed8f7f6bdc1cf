package dev.warden.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Hand-picked values at the edges of the encoding: null vs empty, non-ASCII, every multi part. */
final class EdgeSamples {
    static final Stat STAT = new Stat(0x100000001L, 0x100000002L, 1_700_000_000_000L, 1_700_000_000_500L,
            3, 4, 5, 0x1234_5678_9abc_def0L, 6, 7, 0x100000003L);
    static final String NON_ASCII = "/\u00e9t\u00e9/\u4e2d\u6587/\u20ac\u0000\u007f";

    private EdgeSamples() {
    }

    static List<Record> all() {
        List<Record> samples = new ArrayList<>();
        samples.addAll(handshakes());
        samples.addAll(nullsAndEmpties());
        samples.add(everyWriteSubOp());
        samples.add(everyReadSubOp());
        samples.add(everyResultType());
        samples.add(new MultiRequest(List.of()));
        samples.add(new MultiResponse(List.of()));
        return samples;
    }

    private static List<Record> handshakes() {
        byte[] password = new byte[16];
        Arrays.fill(password, (byte) 0xa5);
        return List.of(
                new ConnectRequest(0, 0, 30_000, 0, new byte[16], false, true),
                new ConnectRequest(0, 0x500000007L, 10_000, 0x0100_0000_0000_0001L, password, true, true),
                new ConnectRequest(0, 0x500000007L, 10_000, 0x0100_0000_0000_0001L, password, false, false),
                new ConnectRequest(0, 0, 0, 0, null, false, false),
                new ConnectRequest(0, 0, 0, 0, new byte[0], false, true),
                new ConnectResponse(0, 30_000, 0x0100_0000_0000_0001L, password, false, true),
                new ConnectResponse(0, 30_000, 0x0100_0000_0000_0001L, password, true, true),
                new ConnectResponse(0, 30_000, 0x0100_0000_0000_0001L, password, false, false),
                new ConnectResponse(0, 0, 0, new byte[16], false, false));
    }

    private static List<Record> nullsAndEmpties() {
        List<String> withNullElement = new ArrayList<>(Arrays.asList("a", null, "", NON_ASCII));
        return List.of(
                new CreateRequest(null, null, null, 0),
                new CreateRequest("", new byte[0], List.of(), 0),
                new CreateRequest(NON_ASCII, bytes("data"), Perms.OPEN_ACL_UNSAFE, 3),
                new CreateTTLRequest("/ttl", bytes("x"), Perms.CREATOR_ALL_ACL, 5, 60_000L),
                new GetDataResponse(null, STAT),
                new GetDataResponse(new byte[0], Stat.ZERO),
                new GetChildrenResponse(null),
                new GetChildrenResponse(List.of()),
                new GetChildrenResponse(withNullElement),
                new GetChildren2Response(List.of("\u00e9", "z"), STAT),
                new SetWatches(-1L, null, List.of(), List.of("/a", "/b")),
                new SetWatches2(7L, List.of("/d"), null, List.of(), List.of("/p"), List.of(NON_ASCII)),
                new GetACLResponse(List.of(new Acl(Perms.READ, new Id(null, null)), new Acl(31, new Id("", ""))), STAT),
                new WhoAmIResponse(List.of(new ClientInfo("ip", "127.0.0.1"), new ClientInfo("digest", null))),
                new WhoAmIResponse(null),
                new AuthPacket(0, "digest", bytes("user:p\u00e4ss")),
                new DeleteContainerRequest(NON_ASCII),
                new WatcherEvent(EventType.NODE_DATA_CHANGED, EventType.STATE_SYNC_CONNECTED, NON_ASCII),
                new ReconfigRequest(null, "", "server.1=localhost:2888:3888", -1L));
    }

    /** Apache refuses to mix reads and writes in one body, so multi and multiRead are separate. */
    static MultiRequest everyWriteSubOp() {
        return new MultiRequest(List.of(
                new MultiRequest.Op(OpCode.CREATE, new CreateRequest("/a", bytes("1"), Perms.OPEN_ACL_UNSAFE, 0)),
                new MultiRequest.Op(OpCode.CREATE2, new CreateRequest("/b", null, Perms.OPEN_ACL_UNSAFE, 3)),
                new MultiRequest.Op(OpCode.CREATE_CONTAINER, new CreateRequest("/c", new byte[0], Perms.OPEN_ACL_UNSAFE, 4)),
                new MultiRequest.Op(OpCode.CREATE_TTL, new CreateTTLRequest("/t", null, Perms.OPEN_ACL_UNSAFE, 6, 1000L)),
                new MultiRequest.Op(OpCode.DELETE, new DeleteRequest("/a", -1)),
                new MultiRequest.Op(OpCode.SET_DATA, new SetDataRequest(NON_ASCII, null, 2)),
                new MultiRequest.Op(OpCode.CHECK, new CheckVersionRequest("/b", 0))));
    }

    static MultiRequest everyReadSubOp() {
        return new MultiRequest(List.of(
                new MultiRequest.Op(OpCode.GET_CHILDREN, new GetChildrenRequest("/", false)),
                new MultiRequest.Op(OpCode.GET_DATA, new GetDataRequest("/b", false))));
    }

    static MultiResponse everyResultType() {
        return new MultiResponse(List.of(
                new MultiResponse.Result(OpCode.CREATE, 0, new CreateResponse("/a")),
                new MultiResponse.Result(OpCode.CREATE2, 0, new Create2Response("/b0000000001", STAT)),
                new MultiResponse.Result(OpCode.DELETE, 0, null),
                new MultiResponse.Result(OpCode.SET_DATA, 0, new SetDataResponse(STAT)),
                new MultiResponse.Result(OpCode.CHECK, 0, null),
                new MultiResponse.Result(OpCode.GET_CHILDREN, 0, new GetChildrenResponse(List.of("x", NON_ASCII))),
                new MultiResponse.Result(OpCode.GET_DATA, 0, new GetDataResponse(null, STAT)),
                MultiResponse.Result.error(0),
                MultiResponse.Result.error(ErrorCode.NO_NODE.code()),
                MultiResponse.Result.error(ErrorCode.RUNTIME_INCONSISTENCY.code())));
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
