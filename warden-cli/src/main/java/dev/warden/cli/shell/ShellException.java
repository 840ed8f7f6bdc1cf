package dev.warden.cli.shell;

/**
 * A shell command that could not run: bad arguments, a malformed ACL, no connection. The
 * message is what the user sees on stderr; {@link #usage()} is added below it when set.
 */
final class ShellException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String usage;

    ShellException(String message) {
        this(message, null);
    }

    ShellException(String message, String usage) {
        super(message);
        this.usage = usage;
    }

    /** The command's usage line when the user got its syntax wrong, else null. */
    String usage() {
        return usage;
    }
}
