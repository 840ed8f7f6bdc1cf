package dev.warden.cli.data;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code warden snapshot ...}: tools for snapshots. */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
        subcommands = {SnapshotDumpCommand.class, SnapshotTakeCommand.class},
        synopsisSubcommandLabel = "COMMAND", description = "Look at or take snapshots (docs/TOOLS.md).")
public final class SnapshotCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
