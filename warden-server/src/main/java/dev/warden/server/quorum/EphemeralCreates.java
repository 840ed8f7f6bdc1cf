package dev.warden.server.quorum;

import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.state.pipeline.Request;

/**
 * Whether a request would create an ephemeral node (a create, or a multi with one among its
 * operations): the requests for which a local session must become global first, as in
 * ZooKeeper. TTL and container nodes are not ephemeral.
 */
final class EphemeralCreates {
    private EphemeralCreates() {
    }

    static boolean in(Request request) {
        if (request.opcode == OpCode.MULTI && request.body instanceof MultiRequest multi) {
            for (MultiRequest.Op op : multi.ops()) {
                if (isEphemeralCreate(op.type(), op.request())) {
                    return true;
                }
            }
            return false;
        }
        return isEphemeralCreate(request.opcode, request.body);
    }

    private static boolean isEphemeralCreate(int opcode, Record body) {
        if ((opcode != OpCode.CREATE && opcode != OpCode.CREATE2) || !(body instanceof CreateRequest create)) {
            return false;
        }
        CreateMode mode = CreateMode.fromFlags(create.flags());
        return mode != null && mode.isEphemeral();
    }
}
