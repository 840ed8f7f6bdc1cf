package dev.warden.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The {@code warden} command. */
@Command(name = "warden", mixinStandardHelpOptions = true, versionProvider = VersionLine.class,
        synopsisSubcommandLabel = "COMMAND",
        description = "Warden, a coordination service that speaks the ZooKeeper protocol.",
        footer = {"", "The warden script also runs:",
                "  bench    Load generator, comparison with Apache ZooKeeper, resource probe, JMH (warden bench --help).",
                "  sim      Deterministic simulation of whole ensembles from seeds (warden sim --help)."})
public final class Main implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        if (isVersionRequest(args)) {
            // Answered before the command tree is built: picocli and the classes of every
            // command would otherwise be loaded and reflected on for one line, most of the
            // command's start-up time. The line is the one the version command prints.
            System.out.println(VersionLine.describe());
            System.exit(0);
        }
        LogSetup.prepare(System.getProperties(), System.getenv());
        System.exit(commandLine(ServerLauncher.warden(), StopSignal.jvmShutdown()).execute(args));
    }

    /** {@code warden version}, {@code warden --version} or {@code warden -V}, with nothing else. */
    static boolean isVersionRequest(String[] args) {
        return args.length == 1 && (args[0].equals("version") || args[0].equals("--version") || args[0].equals("-V"));
    }

    /** The command tree. Subcommands are instances so their collaborators can be passed in. */
    public static CommandLine commandLine(ServerLauncher launcher, StopSignal stopSignal) {
        CommandLine cli = new CommandLine(new Main());
        cli.addSubcommand(new ServerCommand(launcher, stopSignal));
        cli.addSubcommand(new VersionCommand());
        cli.addSubcommand(dev.warden.cli.shell.ShellCommand.commandLine(dev.warden.cli.shell.ShellIo.system()));
        cli.addSubcommand(new dev.warden.cli.cluster.ClusterCommand(stopSignal));
        dev.warden.cli.data.DataTools.register(cli);
        // further subcommands (tools) are registered here, one class each
        cli.addSubcommand(new CommandLine.HelpCommand());
        return cli;
    }

    /** Without a subcommand there is nothing to do: show what there is. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CommandLine.ExitCode.USAGE;
    }
}
