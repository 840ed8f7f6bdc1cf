package dev.warden.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code warden version}: prints the Warden and Java versions. */
@Command(name = "version", description = "Print the Warden version.")
final class VersionCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(VersionLine.describe());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
