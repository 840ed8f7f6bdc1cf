package dev.warden.server.console;

/** A console request refused: the HTTP status, a short code the page tests, and a sentence for people. */
final class ConsoleException extends Exception {
    private final int status;
    private final String code;

    ConsoleException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
