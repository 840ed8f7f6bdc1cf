package dev.warden.protocol;

import java.util.ArrayList;
import java.util.List;

/** The body of a multi/multiRead reply: a MultiHeader plus record per result, then the terminator. */
public record MultiResponse(List<Result> results) implements Record {
    /**
     * One sub-result. {@code type} is the result type (e.g. 1 create, 15 create2, -1 error);
     * {@code body} is the record after the header, or null for results that have none
     * (delete, check). For an error result the body is an {@link ErrorResponse}.
     */
    public record Result(int type, int err, Record body) {
        public static Result error(int err) {
            return new Result(OpCode.ERROR, err, new ErrorResponse(err));
        }
    }

    @Override
    public void writeTo(JuteWriter out) {
        for (Result result : results) {
            new MultiHeader(result.type(), false, result.err()).writeTo(out);
            if (result.body() != null) {
                result.body().writeTo(out);
            }
        }
        new MultiHeader(-1, true, -1).writeTo(out);
    }

    public static MultiResponse read(JuteReader in) {
        List<Result> results = new ArrayList<>();
        while (true) {
            MultiHeader header = MultiHeader.read(in);
            if (header.done()) {
                return new MultiResponse(results);
            }
            Record body = switch (header.type()) {
                case OpCode.CREATE -> CreateResponse.read(in);
                case OpCode.CREATE2 -> Create2Response.read(in);
                case OpCode.DELETE, OpCode.CHECK -> null;
                case OpCode.SET_DATA -> SetDataResponse.read(in);
                case OpCode.GET_CHILDREN -> GetChildrenResponse.read(in);
                case OpCode.GET_DATA -> GetDataResponse.read(in);
                case OpCode.ERROR -> ErrorResponse.read(in);
                default -> throw new ProtocolException("unknown multi result type " + header.type());
            };
            results.add(new Result(header.type(), header.err(), body));
        }
    }
}
