package dev.warden.cli.data;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code warden log ...}: tools for a transaction log. */
@Command(name = "log", mixinStandardHelpOptions = true, subcommands = LogDumpCommand.class,
        synopsisSubcommandLabel = "COMMAND", description = "Look at a transaction log (docs/TOOLS.md).")
public final class LogCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
