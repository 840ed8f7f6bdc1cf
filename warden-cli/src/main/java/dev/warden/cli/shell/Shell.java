package dev.warden.cli.shell;

import dev.warden.client.WardenException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Warden shell: zkCli's commands against one session, run one line at a time. Failures
 * are printed to stderr and remembered, so a script's exit code tells whether every command
 * worked. Entry points: {@link #run} in-process, {@code warden shell} from the command line.
 */
public final class Shell {
    static final String SYNOPSIS = "warden shell [-server host:port[,host:port][/chroot]] [-timeout ms] [command args...]";
    private static final int HISTORY_SHOWN = 11;

    private final ShellSession session;
    private final PrintStream err;
    private final CommandTable commands = new CommandTable();
    private final List<String> history = new ArrayList<>();
    private boolean quitRequested;
    private boolean anyFailed;

    Shell(ShellSession session, PrintStream err) {
        this.session = session;
        this.err = err;
        NodeCommands.register(commands);
        AclCommands.register(commands);
        WatchCommands.register(commands);
        QuotaCommands.register(commands);
        ReconfigCommand.register(commands);
        registerSessionCommands();
    }

    /**
     * Runs the shell as {@code warden shell args...} would with this stdin, never interactively:
     * commands from the trailing arguments or else one per line from {@code in}. Returns the
     * exit code (0 when every command succeeded).
     */
    public static int run(InputStream in, PrintStream out, PrintStream err, String... args) {
        return ShellCommand.commandLine(new ShellIo(in, out, err, false, null)).execute(args);
    }

    private void registerSessionCommands() {
        commands.add(new CommandDef("connect", "", "", 0, 1, "connect host:port[,host:port][/chroot]", (args, s) ->
                s.connect(args.count() == 1 ? args.arg(0) : requirePrevious(s))));
        commands.add(new CommandDef("close", "", "", 0, 0, "close", (args, s) -> s.close()));
        commands.add(new CommandDef("history", "", "", 0, 0, "history", (args, s) -> printHistory(s.out())));
        commands.add(new CommandDef("redo", "", "", 1, 1, "redo cmdno", (args, s) -> {
            throw new IllegalStateException("redo is resolved before dispatch");
        }));
        commands.add(new CommandDef("quit", "", "", 0, 0, "quit", (args, s) -> quitRequested = true));
        commands.add(new CommandDef("exit", "", "", 0, 0, "exit", (args, s) -> quitRequested = true));
        commands.add(new CommandDef("help", "", "", 0, 0, "help", (args, s) -> printHelp(s.out())));
        commands.add(new CommandDef("version", "", "", 0, 0, "version", (args, s) ->
                s.out().println("ZooKeeper CLI version: " + dev.warden.server.common.WardenVersion.DESCRIPTION)));
        commands.add(new CommandDef("printwatches", "", "", 0, 1, "printwatches on|off", (args, s) -> {
            if (args.count() == 0) {
                s.out().println("printwatches is " + (s.printWatches() ? "on" : "off"));
            } else if (args.arg(0).equals("on") || args.arg(0).equals("off")) {
                s.setPrintWatches(args.arg(0).equals("on"));
            } else {
                throw new ShellException("printwatches takes on or off", "printwatches on|off");
            }
        }));
        commands.add(new CommandDef("config", "cws", "", 0, 0, "config [-c] [-w] [-s]", Shell::config));
    }

    /**
     * zkCli's config: the ensemble configuration from /zookeeper/config; {@code -c} only the
     * client connect string it gives, {@code -s} the node's stat too, {@code -w} a watch on it.
     */
    private static void config(ParsedArgs args, ShellSession s) {
        var data = s.client().getData("/zookeeper/config", args.has('w') ? s.printingWatcher() : null);
        String text = new String(data.data(), java.nio.charset.StandardCharsets.UTF_8);
        if (args.has('c')) {
            s.out().println(ConfigMemberLines.connectString(text));
        } else {
            s.out().println(text);
        }
        if (args.has('s')) {
            Formats.printStat(s.out(), data.stat());
        }
    }

    private static String requirePrevious(ShellSession s) {
        if (s.connectString() == null) {
            throw new ShellException("No server to reconnect to", "connect host:port[,host:port][/chroot]");
        }
        return s.connectString();
    }

    /** Connects at start-up; a failure is reported and counts as a failed command. */
    void connectInitially(String connectString) {
        runGuarded(() -> session.connect(connectString));
    }

    /** Runs one line (blank lines and {@code #} comments do nothing); returns whether it succeeded. */
    boolean execute(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return true;
        }
        int index = history.size();
        history.add(trimmed);
        return runGuarded(() -> run(Tokenizer.split(trimmed), index));
    }

    /** Runs a command already split into words (from the command line: no quoting to undo). */
    boolean execute(List<String> words) {
        int index = history.size();
        history.add(String.join(" ", words));
        return runGuarded(() -> run(words, index));
    }

    private void run(List<String> words, int historyIndex) {
        List<String> effective = words.get(0).equals("redo") ? redoTarget(words, historyIndex) : words;
        dispatch(effective);
    }

    /** Reads commands, one per line, until end of input or quit; returns the exit code. */
    int runScript(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while (!quitRequested && (line = reader.readLine()) != null) {
            execute(line);
        }
        return exitCode();
    }

    int exitCode() {
        return anyFailed ? 1 : 0;
    }

    boolean quitRequested() {
        return quitRequested;
    }

    String prompt() {
        return "[warden: " + session.describe() + " " + history.size() + "] ";
    }

    CommandTable commands() {
        return commands;
    }

    ShellSession session() {
        return session;
    }

    private boolean runGuarded(Runnable body) {
        try {
            body.run();
            return true;
        } catch (ShellException e) {
            err.println(e.getMessage());
            if (e.usage() != null) {
                err.println("Usage: " + e.usage());
            }
        } catch (WardenException e) {
            err.println(Formats.errorMessage(e));
        } catch (IllegalArgumentException e) {
            // the client's path and argument checks
            err.println(e.getMessage());
        }
        anyFailed = true;
        return false;
    }

    private void dispatch(List<String> words) {
        CommandDef command = commands.find(words.get(0));
        if (command == null) {
            throw new ShellException("Unknown command: " + words.get(0) + " (type help for the list)");
        }
        ParsedArgs args = command.parse(words.subList(1, words.size()));
        command.action().run(args, session);
    }

    /** Replaces the redo in history by the command it repeats, so history shows what ran. */
    private List<String> redoTarget(List<String> words, int index) {
        if (words.size() != 2) {
            throw new ShellException("Missing arguments", "redo cmdno");
        }
        int target;
        try {
            target = Integer.parseInt(words.get(1));
        } catch (NumberFormatException e) {
            throw new ShellException("Command number must be an integer: " + words.get(1), "redo cmdno");
        }
        if (target < 0 || target >= index) {
            throw new ShellException("Command index out of range: " + target);
        }
        String repeated = history.get(target);
        List<String> repeatedWords = Tokenizer.split(repeated);
        if (repeatedWords.get(0).equals("redo")) {
            throw new ShellException("No redoing redos");
        }
        history.set(index, repeated);
        return repeatedWords;
    }

    private void printHistory(PrintStream out) {
        for (int i = Math.max(0, history.size() - HISTORY_SHOWN); i < history.size(); i++) {
            out.println(i + " - " + history.get(i));
        }
    }

    private void printHelp(PrintStream out) {
        out.println(SYNOPSIS);
        for (CommandDef command : commands.all()) {
            out.println("\t" + command.usage());
        }
    }
}
