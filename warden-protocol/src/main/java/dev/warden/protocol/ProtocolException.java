package dev.warden.protocol;

/** A frame or record that does not decode: truncated, negative or oversized lengths, bad values. */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
