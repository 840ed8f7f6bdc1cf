package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.MultiOperationRecord;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.ACL;

/**
 * Mirrors multi bodies onto Apache's {@link MultiOperationRecord} and
 * {@link org.apache.zookeeper.MultiResponse}, built through the public {@link Op} and
 * {@link OpResult} factories a real client uses.
 */
final class ApacheMultiMirror {
    private ApacheMultiMirror() {
    }

    static org.apache.jute.Record toApache(Record multi) {
        if (multi instanceof MultiRequest request) {
            List<Op> ops = new ArrayList<>();
            request.ops().forEach(op -> ops.add(toApacheOp(op)));
            return new MultiOperationRecord(ops);
        }
        org.apache.zookeeper.MultiResponse response = new org.apache.zookeeper.MultiResponse();
        ((MultiResponse) multi).results().forEach(result -> response.add(toApacheResult(result)));
        return response;
    }

    /** Whether Apache's public Op factories can express this sub-op (they cannot pick create2). */
    static boolean hasApacheFactory(MultiRequest.Op op) {
        return op.type() != OpCode.CREATE2;
    }

    @SuppressWarnings("unchecked")
    private static Op toApacheOp(MultiRequest.Op op) {
        Record body = op.request();
        return switch (op.type()) {
            // The factory derives the opcode from the flags: create for 0..3, createContainer for 4.
            case OpCode.CREATE, OpCode.CREATE_CONTAINER -> {
                CreateRequest create = (CreateRequest) body;
                yield Op.create(create.path(), create.data(), (List<ACL>) ApacheMirror.toApache(create.acl()), create.flags());
            }
            case OpCode.CREATE_TTL -> {
                CreateTTLRequest create = (CreateTTLRequest) body;
                yield Op.create(create.path(), create.data(), (List<ACL>) ApacheMirror.toApache(create.acl()),
                        create.flags(), create.ttl());
            }
            case OpCode.DELETE -> Op.delete(((DeleteRequest) body).path(), ((DeleteRequest) body).version());
            case OpCode.SET_DATA -> {
                SetDataRequest set = (SetDataRequest) body;
                yield Op.setData(set.path(), set.data(), set.version());
            }
            case OpCode.CHECK -> Op.check(((CheckVersionRequest) body).path(), ((CheckVersionRequest) body).version());
            case OpCode.GET_CHILDREN -> Op.getChildren(((GetChildrenRequest) body).path());
            case OpCode.GET_DATA -> Op.getData(((GetDataRequest) body).path());
            default -> throw new IllegalArgumentException("no Apache factory for sub-op type " + op.type());
        };
    }

    private static OpResult toApacheResult(MultiResponse.Result result) {
        Record body = result.body();
        return switch (result.type()) {
            case OpCode.CREATE -> new OpResult.CreateResult(((CreateResponse) body).path());
            case OpCode.CREATE2 -> new OpResult.CreateResult(((Create2Response) body).path(),
                    apacheStat(((Create2Response) body).stat()));
            case OpCode.DELETE -> new OpResult.DeleteResult();
            case OpCode.CHECK -> new OpResult.CheckResult();
            case OpCode.SET_DATA -> new OpResult.SetDataResult(apacheStat(((SetDataResponse) body).stat()));
            case OpCode.GET_CHILDREN -> new OpResult.GetChildrenResult(((GetChildrenResponse) body).children());
            case OpCode.GET_DATA -> new OpResult.GetDataResult(((GetDataResponse) body).data(),
                    apacheStat(((GetDataResponse) body).stat()));
            case OpCode.ERROR -> new OpResult.ErrorResult(result.err());
            default -> throw new IllegalArgumentException("no Apache result for type " + result.type());
        };
    }

    private static org.apache.zookeeper.data.Stat apacheStat(Stat stat) {
        return (org.apache.zookeeper.data.Stat) ApacheMirror.toApache(stat);
    }

    static void assertSameValues(Record ours, Object apache) {
        if (ours instanceof MultiRequest request) {
            List<Op> theirs = new ArrayList<>();
            ((MultiOperationRecord) apache).forEach(theirs::add);
            assertEquals(request.ops().size(), theirs.size(), "sub-op count");
            for (int i = 0; i < theirs.size(); i++) {
                MultiRequest.Op op = request.ops().get(i);
                assertEquals(op.type(), theirs.get(i).getType(), "type of sub-op " + i);
                ApacheMirror.assertSameValues(op.request(), theirs.get(i).toRequestRecord(), "sub-op " + i);
            }
            return;
        }
        List<MultiResponse.Result> results = ((MultiResponse) ours).results();
        List<OpResult> theirs = ((org.apache.zookeeper.MultiResponse) apache).getResultList();
        assertEquals(results.size(), theirs.size(), "result count");
        for (int i = 0; i < theirs.size(); i++) {
            assertSameResult(results.get(i), theirs.get(i), "result " + i);
        }
    }

    private static void assertSameResult(MultiResponse.Result ours, OpResult theirs, String where) {
        assertEquals(ours.type(), theirs.getType(), where + ".type");
        Record body = ours.body();
        switch (ours.type()) {
            case OpCode.ERROR -> {
                assertEquals(ours.err(), ((OpResult.ErrorResult) theirs).getErr(), where + ".err");
                assertEquals(new ErrorResponse(ours.err()), body, where + " body repeats err");
            }
            case OpCode.CREATE -> ApacheMirror.assertSameValues(((CreateResponse) body).path(),
                    ((OpResult.CreateResult) theirs).getPath(), where + ".path");
            case OpCode.CREATE2 -> {
                OpResult.CreateResult create = (OpResult.CreateResult) theirs;
                ApacheMirror.assertSameValues(((Create2Response) body).path(), create.getPath(), where + ".path");
                ApacheMirror.assertSameValues(((Create2Response) body).stat(), create.getStat(), where + ".stat");
            }
            case OpCode.SET_DATA -> ApacheMirror.assertSameValues(((SetDataResponse) body).stat(),
                    ((OpResult.SetDataResult) theirs).getStat(), where + ".stat");
            case OpCode.GET_CHILDREN -> ApacheMirror.assertSameValues(((GetChildrenResponse) body).children(),
                    ((OpResult.GetChildrenResult) theirs).getChildren(), where + ".children");
            case OpCode.GET_DATA -> {
                OpResult.GetDataResult data = (OpResult.GetDataResult) theirs;
                ApacheMirror.assertSameValues(((GetDataResponse) body).data(), data.getData(), where + ".data");
                ApacheMirror.assertSameValues(((GetDataResponse) body).stat(), data.getStat(), where + ".stat");
            }
            default -> assertNull(body, where + " has no body");
        }
        if (ours.type() != OpCode.ERROR) {
            // Apache writes err 0 in the header of every successful result.
            assertEquals(0, ours.err(), where + ".err");
        }
    }
}
