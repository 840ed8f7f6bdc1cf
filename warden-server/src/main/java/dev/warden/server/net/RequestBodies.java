package dev.warden.server.net;

import dev.warden.protocol.AddWatchRequest;
import dev.warden.protocol.AuthPacket;
import dev.warden.protocol.CheckWatchesRequest;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateTTLRequest;
import dev.warden.protocol.DeleteContainerRequest;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.ExistsRequest;
import dev.warden.protocol.GetACLRequest;
import dev.warden.protocol.GetAllChildrenNumberRequest;
import dev.warden.protocol.GetChildren2Request;
import dev.warden.protocol.GetChildrenRequest;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.GetEphemeralsRequest;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.protocol.Record;
import dev.warden.protocol.RemoveWatchesRequest;
import dev.warden.protocol.SetACLRequest;
import dev.warden.protocol.SetDataRequest;
import dev.warden.protocol.SetWatches2;
import dev.warden.protocol.SetWatches;
import dev.warden.protocol.SyncRequest;

/** Decodes a request body by opcode. */
public final class RequestBodies {
    /** Marker for opcodes whose request has no body. */
    static final Record EMPTY = out -> { };

    private RequestBodies() {
    }

    /** True for opcodes a client may send (check alone, sasl and unknown ones are not). */
    public static boolean isSupported(int opcode) {
        return switch (opcode) {
            case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER, OpCode.CREATE_TTL, OpCode.DELETE,
                 OpCode.DELETE_CONTAINER, OpCode.EXISTS, OpCode.GET_DATA, OpCode.SET_DATA, OpCode.GET_ACL,
                 OpCode.SET_ACL, OpCode.GET_CHILDREN, OpCode.GET_CHILDREN2, OpCode.SYNC, OpCode.PING, OpCode.MULTI,
                 OpCode.MULTI_READ, OpCode.CHECK_WATCHES, OpCode.REMOVE_WATCHES, OpCode.ADD_WATCH, OpCode.AUTH,
                 OpCode.SET_WATCHES, OpCode.SET_WATCHES2, OpCode.GET_EPHEMERALS, OpCode.GET_ALL_CHILDREN_NUMBER,
                 OpCode.WHO_AM_I, OpCode.CLOSE_SESSION, OpCode.RECONFIG -> true;
            default -> false;
        };
    }

    /** The body for a supported opcode; throws ProtocolException when it does not decode. */
    public static Record decode(int opcode, JuteReader in) {
        return switch (opcode) {
            case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER -> CreateRequest.read(in);
            case OpCode.CREATE_TTL -> CreateTTLRequest.read(in);
            case OpCode.DELETE -> DeleteRequest.read(in);
            case OpCode.DELETE_CONTAINER -> DeleteContainerRequest.read(in);
            case OpCode.EXISTS -> ExistsRequest.read(in);
            case OpCode.GET_DATA -> GetDataRequest.read(in);
            case OpCode.SET_DATA -> SetDataRequest.read(in);
            case OpCode.GET_ACL -> GetACLRequest.read(in);
            case OpCode.SET_ACL -> SetACLRequest.read(in);
            case OpCode.GET_CHILDREN -> GetChildrenRequest.read(in);
            case OpCode.GET_CHILDREN2 -> GetChildren2Request.read(in);
            case OpCode.SYNC -> SyncRequest.read(in);
            case OpCode.MULTI, OpCode.MULTI_READ -> MultiRequest.read(in);
            case OpCode.CHECK_WATCHES -> CheckWatchesRequest.read(in);
            case OpCode.REMOVE_WATCHES -> RemoveWatchesRequest.read(in);
            case OpCode.ADD_WATCH -> AddWatchRequest.read(in);
            case OpCode.AUTH -> AuthPacket.read(in);
            case OpCode.SET_WATCHES -> SetWatches.read(in);
            case OpCode.SET_WATCHES2 -> SetWatches2.read(in);
            case OpCode.GET_EPHEMERALS -> GetEphemeralsRequest.read(in);
            case OpCode.GET_ALL_CHILDREN_NUMBER -> GetAllChildrenNumberRequest.read(in);
            case OpCode.RECONFIG -> ReconfigRequest.read(in);
            default -> EMPTY;
        };
    }
}
