package dev.warden.state.pipeline;

import dev.warden.protocol.ErrorCode;

/** A request that fails validation; carries the error code for the reply. */
public final class PrepException extends Exception {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;

    public PrepException(ErrorCode code) {
        super(code.name(), null, false, false);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
