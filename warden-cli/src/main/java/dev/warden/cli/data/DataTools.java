package dev.warden.cli.data;

import picocli.CommandLine;

/** Adds the data tools (and the ZooKeeper import and export) to the {@code warden} command. */
public final class DataTools {
    private DataTools() {
    }

    public static void register(CommandLine cli) {
        cli.addSubcommand(new LogCommand());
        cli.addSubcommand(new SnapshotCommand());
        cli.addSubcommand(new RestoreCommand());
        cli.addSubcommand(new PurgeCommand());
        cli.addSubcommand(new dev.warden.cli.zookeeper.ImportCommand());
        cli.addSubcommand(new dev.warden.cli.zookeeper.ExportCommand());
    }
}
