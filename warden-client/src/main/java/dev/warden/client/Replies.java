package dev.warden.client;

import dev.warden.protocol.Create2Response;
import dev.warden.protocol.CreateResponse;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetChildrenResponse;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.MultiResponse;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetDataResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Reply decoding shared by the operations. */
final class Replies {
    private Replies() {
    }

    static void check(int err, String path) {
        if (err != 0) {
            throw WardenException.of(err, path);
        }
    }

    /** A decoder that fails on any error code and otherwise reads the body. */
    static <T> Packet.ReplyDecoder<T> ok(String path, Function<JuteReader, T> body) {
        return (err, in) -> {
            check(err, path);
            return body.apply(in);
        };
    }

    static CreateResult created(int opCode, JuteReader in, Paths paths) {
        if (opCode == OpCode.CREATE) {
            return new CreateResult(paths.toClient(CreateResponse.read(in).path()), null);
        }
        Create2Response response = Create2Response.read(in);
        return new CreateResult(paths.toClient(response.path()), response.stat());
    }

    /**
     * Maps a multi/multiRead reply. For an atomic multi the first failed sub-op fails the whole
     * future (the others carry OK or RUNTIME_INCONSISTENCY, which say nothing new).
     */
    static List<OpResult> multi(JuteReader in, List<String> opPaths, Paths paths, boolean atomic) {
        List<MultiResponse.Result> results = MultiResponse.read(in).results();
        List<OpResult> out = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            MultiResponse.Result result = results.get(i);
            String path = i < opPaths.size() ? opPaths.get(i) : null;
            if (result.type() == OpCode.ERROR) {
                if (atomic && result.err() != 0) {
                    throw WardenException.of(result.err(), path, i);
                }
                out.add(new OpResult.Failed(ErrorCode.of(result.err())));
                continue;
            }
            out.add(switch (result.type()) {
                case OpCode.CREATE -> new OpResult.Created(paths.toClient(((CreateResponse) result.body()).path()), null);
                case OpCode.CREATE2 -> {
                    Create2Response created = (Create2Response) result.body();
                    yield new OpResult.Created(paths.toClient(created.path()), created.stat());
                }
                case OpCode.DELETE -> new OpResult.Deleted();
                case OpCode.SET_DATA -> new OpResult.DataSet(((SetDataResponse) result.body()).stat());
                case OpCode.CHECK -> new OpResult.Checked();
                case OpCode.GET_DATA -> {
                    GetDataResponse data = (GetDataResponse) result.body();
                    yield new OpResult.Data(data.data(), data.stat());
                }
                case OpCode.GET_CHILDREN -> new OpResult.Children(((GetChildrenResponse) result.body()).children());
                default -> throw new WardenException(ErrorCode.MARSHALLING_ERROR, path, "unexpected multi result type " + result.type());
            });
        }
        return out;
    }
}
