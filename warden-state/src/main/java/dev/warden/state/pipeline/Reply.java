package dev.warden.state.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Record;

/** An error code and a body (null for none) ready to go back to the client. */
public record Reply(ErrorCode error, Record body) {
    public static Reply ok(Record body) {
        return new Reply(ErrorCode.OK, body);
    }

    public static Reply error(ErrorCode error) {
        return new Reply(error, null);
    }
}
