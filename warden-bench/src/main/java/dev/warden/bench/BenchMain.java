package dev.warden.bench;

import dev.warden.bench.compare.CompareCommand;
import dev.warden.bench.jmh.MicroCommand;
import dev.warden.bench.load.LoadCommand;
import dev.warden.bench.resources.ResourcesCommand;
import dev.warden.cli.WardenVersion;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code warden bench}: the load generator, the side-by-side comparison with Apache ZooKeeper, the
 * resource figures of both servers and the JMH microbenchmarks.
 */
@Command(name = "warden bench", mixinStandardHelpOptions = true, versionProvider = WardenVersion.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "Benchmarks for any ZooKeeper-protocol server, and Warden against Apache ZooKeeper.")
public final class BenchMain implements Callable<Integer> {
    /** Exit status of a command that ran and failed (picocli's own for a usage error is 2). */
    public static final int EXIT_FAILED = 1;

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new BenchMain());
        cli.addSubcommand(new LoadCommand());
        cli.addSubcommand(new CompareCommand());
        cli.addSubcommand(new ResourcesCommand());
        cli.addSubcommand(new MicroCommand());
        cli.addSubcommand(new dev.warden.bench.startup.StartupCommand());
        cli.addSubcommand(new CommandLine.HelpCommand());
        return cli;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }
}
