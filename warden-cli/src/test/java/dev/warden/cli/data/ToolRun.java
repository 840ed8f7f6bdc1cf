package dev.warden.cli.data;

import dev.warden.cli.Main;
import dev.warden.cli.ServerLauncher;
import dev.warden.cli.StopSignal;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of a {@code warden} subcommand in this JVM: exit status, stdout and stderr. */
public record ToolRun(int exitCode, String out, String err) {
    public static ToolRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine(ServerLauncher.warden(), StopSignal.jvmShutdown());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new ToolRun(exit, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out:\n" + out + "\n--- err:\n" + err;
    }
}
