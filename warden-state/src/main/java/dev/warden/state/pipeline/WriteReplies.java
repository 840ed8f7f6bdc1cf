package dev.warden.state.pipeline;

import dev.warden.protocol.Create2Response;
import dev.warden.protocol.CreateResponse;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.MultiResponse;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.SetACLResponse;
import dev.warden.protocol.SetDataResponse;
import dev.warden.protocol.Stat;
import dev.warden.state.txn.TxnBody;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Builds the reply body of a write from its transaction and the Stats after applying it. */
public final class WriteReplies {
    private WriteReplies() {
    }

    public static Record body(Request request, List<Stat> stats) {
        return body(request, request.txn, stats);
    }

    /** The reply body for {@code request}, whose transaction {@code txn} was applied elsewhere. */
    public static Record body(Request request, dev.warden.state.txn.Txn txn, List<Stat> stats) {
        TxnBody body = txn.body();
        if (body instanceof TxnBody.Multi multi) {
            List<MultiRequest.Op> ops = ((MultiRequest) request.body).ops();
            List<MultiResponse.Result> results = new ArrayList<>(ops.size());
            for (int i = 0; i < ops.size(); i++) {
                results.add(result(ops.get(i).type(), multi.ops().get(i), stats.get(i)));
            }
            return new MultiResponse(results);
        }
        return single(request.opcode, body, stats.get(0));
    }

    private static Record single(int opcode, TxnBody body, Stat stat) {
        return switch (opcode) {
            case OpCode.CREATE -> new CreateResponse(((TxnBody.Create) body).path());
            case OpCode.CREATE2, OpCode.CREATE_CONTAINER, OpCode.CREATE_TTL ->
                    new Create2Response(((TxnBody.Create) body).path(), stat);
            case OpCode.SET_DATA -> new SetDataResponse(stat);
            case OpCode.SET_ACL -> new SetACLResponse(stat);
            // /zookeeper/config as the change left it, as ZooKeeper answers a reconfig
            case OpCode.RECONFIG -> new GetDataResponse(configData((TxnBody.Reconfig) body, stat), stat);
            default -> null;
        };
    }

    private static byte[] configData(TxnBody.Reconfig body, Stat stat) {
        return (new String(body.memberText(), StandardCharsets.UTF_8) + "version=" + Long.toHexString(stat.mzxid()))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static MultiResponse.Result result(int opcode, TxnBody body, Stat stat) {
        return switch (opcode) {
            case OpCode.CREATE -> new MultiResponse.Result(OpCode.CREATE, 0, single(opcode, body, stat));
            case OpCode.CREATE2, OpCode.CREATE_CONTAINER, OpCode.CREATE_TTL ->
                    new MultiResponse.Result(OpCode.CREATE2, 0, single(opcode, body, stat));
            case OpCode.SET_DATA -> new MultiResponse.Result(OpCode.SET_DATA, 0, new SetDataResponse(stat));
            default -> new MultiResponse.Result(opcode, 0, null);
        };
    }

    /** The results of a multi that failed validation. */
    public static MultiResponse failedMulti(List<ErrorCode> errors) {
        List<MultiResponse.Result> results = new ArrayList<>(errors.size());
        for (ErrorCode error : errors) {
            results.add(MultiResponse.Result.error(error.code()));
        }
        return new MultiResponse(results);
    }
}
