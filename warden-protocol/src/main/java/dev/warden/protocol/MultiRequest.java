package dev.warden.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The body of multi (14) and multiRead (22): a MultiHeader plus record per sub-op, ended by a
 * MultiHeader{-1, true, -1}. There is no count on the wire.
 */
public record MultiRequest(List<Op> ops) implements Record {
    /** One sub-operation: its opcode and its request record (null for an unknown type). */
    public record Op(int type, Record request) {
    }

    @Override
    public void writeTo(JuteWriter out) {
        for (Op op : ops) {
            new MultiHeader(op.type(), false, -1).writeTo(out);
            op.request().writeTo(out);
        }
        new MultiHeader(-1, true, -1).writeTo(out);
    }

    /**
     * Decodes the sub-ops. A sub-op type that has no request record here makes the whole
     * request undecodable, so it is a {@link ProtocolException} (MARSHALLINGERROR for the caller).
     */
    public static MultiRequest read(JuteReader in) {
        List<Op> ops = new ArrayList<>();
        while (true) {
            MultiHeader header = MultiHeader.read(in);
            if (header.done()) {
                return new MultiRequest(ops);
            }
            Record request = switch (header.type()) {
                case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER -> CreateRequest.read(in);
                case OpCode.CREATE_TTL -> CreateTTLRequest.read(in);
                case OpCode.DELETE -> DeleteRequest.read(in);
                case OpCode.SET_DATA -> SetDataRequest.read(in);
                case OpCode.CHECK -> CheckVersionRequest.read(in);
                case OpCode.GET_CHILDREN -> GetChildrenRequest.read(in);
                case OpCode.GET_DATA -> GetDataRequest.read(in);
                default -> throw new ProtocolException("unsupported multi sub-op type " + header.type());
            };
            ops.add(new Op(header.type(), request));
        }
    }
}
