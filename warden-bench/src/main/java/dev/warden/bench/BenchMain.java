package dev.warden.bench;

import dev.warden.bench.compare.CompareCommand;
import dev.warden.bench.jmh.MicroCommand;
import dev.warden.bench.load.LoadCommand;
import dev.warden.bench.resources.ResourcesCommand;
import dev.warden.cli.VersionLine;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code warden bench}: the load generator, the side-by-side comparison with Apache ZooKeeper (and
 * etcd), the scale curves, the resource figures of both servers and the JMH microbenchmarks.
 */
@Command(name = "warden bench", mixinStandardHelpOptions = true, versionProvider = VersionLine.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "Benchmarks for any ZooKeeper-protocol server, and Warden against Apache ZooKeeper.")
public final class BenchMain implements Callable<Integer> {
    /** Exit status of a command that ran and failed (picocli's own for a usage error is 2). */
    public static final int EXIT_FAILED = 1;

    @Spec
    private CommandSpec spec;

    /**
     * The Apache client logs every failed connection attempt and every lost connection as a WARN
     * with a stack trace, once per session per retry: thousands of lines when a server is down or
     * dies mid-run; its Netty socket logs a reset connection as an ERROR with a stack trace. The
     * run reports those failures itself (errors by code, a clear failure line).
     */
    public static final java.util.Map<String, String> APACHE_CLIENT_LEVELS = java.util.Map.of(
            "org.apache.zookeeper.ClientCnxn", "ERROR", "org.apache.zookeeper.ClientCnxnSocketNetty", "OFF",
            "org.apache.zookeeper.ClientCnxnSocketNIO", "ERROR");

    public static void main(String[] args) {
        // warnings and errors only, so the load client's per-session lines do not drown the progress output
        dev.warden.cli.ToolLogging.quiet(APACHE_CLIENT_LEVELS);
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new BenchMain());
        cli.addSubcommand(new LoadCommand());
        cli.addSubcommand(new CompareCommand());
        cli.addSubcommand(new dev.warden.bench.compare.ReconfigStallCommand());
        cli.addSubcommand(new dev.warden.bench.compare.ResyncStallCommand());
        cli.addSubcommand(new ResourcesCommand());
        cli.addSubcommand(new MicroCommand());
        cli.addSubcommand(new dev.warden.bench.startup.StartupCommand());
        cli.addSubcommand(new dev.warden.bench.scale.ScaleCommand());
        cli.addSubcommand(new CommandLine.HelpCommand());
        return cli;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }
}
