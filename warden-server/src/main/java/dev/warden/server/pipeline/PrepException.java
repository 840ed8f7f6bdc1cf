package dev.warden.server.pipeline;

import dev.warden.protocol.ErrorCode;

/** A request that fails validation; carries the error code for the reply. */
final class PrepException extends Exception {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;

    PrepException(ErrorCode code) {
        super(code.name(), null, false, false);
        this.code = code;
    }

    ErrorCode code() {
        return code;
    }
}
