package dev.warden.cli.shell;

import java.io.IOException;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The shell for a person at a terminal: JLine line editing, history kept in a file across
 * runs, tab completion of commands and znode paths, and watch events printed above the prompt
 * so they do not garble the line being typed.
 */
final class InteractiveConsole {
    private final Shell shell;
    private final ShellIo io;

    InteractiveConsole(Shell shell, ShellIo io) {
        this.shell = shell;
        this.io = io;
    }

    int run(String server) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            return runOn(terminal, server);
        }
    }

    /** Runs until quit or end of input. Ctrl-C drops the line being typed, as in a Unix shell. */
    int runOn(Terminal terminal, String server) throws IOException {
        LineReaderBuilder builder = LineReaderBuilder.builder()
                .terminal(terminal)
                .appName("warden")
                .completer(completer());
        if (io.historyFile() != null) {
            builder.variable(LineReader.HISTORY_FILE, io.historyFile());
        }
        LineReader reader = builder.build();
        shell.session().setEventSink(message -> {
            reader.printAbove(message);
            refreshPrompt(reader);
        });
        terminal.writer().println("Connecting to " + server);
        terminal.writer().flush();
        shell.connectInitially(server);
        try {
            while (!shell.quitRequested()) {
                String line;
                try {
                    line = reader.readLine(shell.prompt());
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                shell.execute(line);
                io.out().flush();
            }
        } finally {
            shell.session().setEventSink(io.out()::println);
            reader.getHistory().save();
        }
        // A person saw each error as it happened; the session as a whole did not fail.
        return 0;
    }

    /**
     * A connection change also changes the prompt (host:port(SUSPENDED) and back): show it on the
     * line being typed, not only at the next one.
     */
    private void refreshPrompt(LineReader reader) {
        if (reader instanceof org.jline.reader.impl.LineReaderImpl impl && reader.isReading()) {
            try {
                impl.setPrompt(shell.prompt());
                reader.callWidget(LineReader.REDRAW_LINE);
                reader.callWidget(LineReader.REDISPLAY);
            } catch (IllegalStateException notReading) {
                // the line was just submitted: the next prompt is drawn fresh anyway
            }
        }
    }

    private Completer completer() {
        ShellCompleter completions = new ShellCompleter(shell.commands(), shell.session());
        return (reader, parsedLine, candidates) -> {
            String partial = parsedLine.word().substring(0, parsedLine.wordCursor());
            List<ShellCompleter.Completion> found = completions.complete(parsedLine.wordIndex(), partial);
            for (ShellCompleter.Completion completion : found) {
                candidates.add(new Candidate(completion.value(), completion.value(), null, null, null, null,
                        completion.complete()));
            }
        };
    }
}
