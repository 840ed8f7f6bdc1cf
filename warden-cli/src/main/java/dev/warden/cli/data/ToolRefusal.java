package dev.warden.cli.data;

import java.io.IOException;

/**
 * A data tool refuses what it was asked (a directory in use, a non-empty target, input that is
 * not what the tool reads): the message names the file or directory and the way out, and
 * nothing was written. Exit status 2, as for the server's refusals.
 */
public final class ToolRefusal extends IOException {
    public static final int EXIT_STATUS = 2;
    private static final long serialVersionUID = 1L;

    public ToolRefusal(String message) {
        super(message);
    }
}
