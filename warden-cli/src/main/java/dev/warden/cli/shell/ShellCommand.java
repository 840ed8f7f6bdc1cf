package dev.warden.cli.shell;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code warden shell}: the options zkCli takes, then either one command or a session. */
@Command(name = "shell", mixinStandardHelpOptions = true,
        description = {"An interactive shell with zkCli's commands (type help inside it).",
            "With a trailing command, runs it and exits; with stdin not a terminal, runs one command per line.",
            "Exits with 1 if any command failed."})
public final class ShellCommand implements Callable<Integer> {
    @Option(names = "-server", paramLabel = "host:port[,host:port][/chroot]", defaultValue = "localhost:2181",
            description = "Servers to connect to (default: ${DEFAULT-VALUE}).")
    private String server;

    @Option(names = "-timeout", paramLabel = "ms", defaultValue = "30000",
            description = "Session timeout in milliseconds (default: ${DEFAULT-VALUE}).")
    private int sessionTimeoutMs;

    @Option(names = ShellClientConfig.FLAG, paramLabel = "file",
            description = {"The Apache client's properties: zookeeper.client.secure=true and the zookeeper.ssl.*"
                + " keys connect with TLS (a key store gives the session its x509 identity);"
                + " java.security.auth.login.config with a Client section authenticates with SASL.",
                "The same keys are also read as JVM system properties; the file wins."})
    private java.nio.file.Path clientConfiguration;

    @Parameters(paramLabel = "command", arity = "0..*", description = "A command and its arguments, e.g. ls -s /.")
    private List<String> commandWords = new ArrayList<>();

    private final ShellIo io;

    private ShellCommand(ShellIo io) {
        this.io = io;
    }

    /**
     * The subcommand, configured so that everything from the first command word on is left to
     * the shell ({@code warden shell ls -s /} must not see {@code -s} as its own option).
     */
    public static CommandLine commandLine(ShellIo io) {
        CommandLine cli = new CommandLine(new ShellCommand(io));
        cli.setStopAtPositional(true);
        cli.setUnmatchedOptionsArePositionalParams(true);
        cli.setOut(new java.io.PrintWriter(io.out(), true));
        cli.setErr(new java.io.PrintWriter(io.err(), true));
        return cli;
    }

    @Override
    public Integer call() {
        if (sessionTimeoutMs <= 0) {
            io.err().println("-timeout must be a positive number of milliseconds");
            return CommandLine.ExitCode.USAGE;
        }
        ShellClientConfig clientConfig;
        try {
            clientConfig = ShellClientConfig.load(clientConfiguration, System::getProperty);
        } catch (IllegalArgumentException bad) {
            io.err().println(bad.getMessage());
            return CommandLine.ExitCode.USAGE;
        }
        if (clientConfig.notice() != null) {
            io.err().println(clientConfig.notice());
        }
        try (ShellSession session = new ShellSession(io.out(), sessionTimeoutMs, clientConfig)) {
            Shell shell = new Shell(session, io.err());
            if (io.interactive() && commandWords.isEmpty()) {
                return new InteractiveConsole(shell, io).run(server);
            }
            shell.connectInitially(server);
            if (!commandWords.isEmpty()) {
                // `warden shell "ls /"` (one quoted argument) means the same as `warden shell ls /`.
                if (commandWords.size() == 1 && commandWords.get(0).contains(" ")) {
                    shell.execute(commandWords.get(0));
                } else {
                    shell.execute(commandWords);
                }
                return shell.exitCode();
            }
            return shell.runScript(io.in());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            io.out().flush();
            io.err().flush();
        }
    }
}
