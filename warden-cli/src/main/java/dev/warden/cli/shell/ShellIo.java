package dev.warden.cli.shell;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Where the shell reads and writes.
 *
 * @param interactive  true for a person at a terminal (JLine editing, prompt, completion)
 * @param historyFile  where interactive history persists, or null for none
 */
public record ShellIo(InputStream in, PrintStream out, PrintStream err, boolean interactive, Path historyFile) {

    /** The process's own streams; interactive when both stdin and stdout are a terminal. */
    public static ShellIo system() {
        String home = System.getenv("HOME");
        Path history = home == null ? null : Path.of(home, ".warden_history");
        return new ShellIo(System.in, System.out, System.err, System.console() != null, history);
    }
}
