package dev.warden.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = Main.commandLine(new RecordingLauncher(), new ImmediateStop());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void versionPrintsTheFilteredProjectVersion() {
        assertEquals(0, run("version"));
        assertTrue(out.toString().matches("Warden \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(Java .+\\)\\n"), out.toString());
    }

    @Test
    void versionOptionMatchesVersionCommand() {
        run("version");
        String fromCommand = out.toString();
        out.getBuffer().setLength(0);
        assertEquals(0, run("--version"));
        assertEquals(fromCommand, out.toString());
    }

    /** main answers a version request before building the command tree; the line must not differ. */
    @Test
    void versionFromMainIsTheVersionCommandsLine() throws Exception {
        run("version");
        for (String asked : new String[] {"version", "--version", "-V"}) {
            Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), asked).redirectErrorStream(true).start();
            String printed = new String(process.getInputStream().readAllBytes());
            assertEquals(0, process.waitFor(), printed);
            assertEquals(out.toString(), printed, asked);
        }
        assertTrue(Main.isVersionRequest(new String[] {"version"}));
        assertEquals(false, Main.isVersionRequest(new String[] {"version", "extra"}));
        assertEquals(false, Main.isVersionRequest(new String[] {"server"}));
    }

    @Test
    void noCommandPrintsUsageAndExitsWithTwo() {
        assertEquals(2, run());
        assertTrue(err.toString().contains("server"), err.toString());
        assertTrue(err.toString().contains("version"), err.toString());
    }

    @Test
    void unknownCommandExitsWithTwo() {
        assertEquals(2, run("serve"));
    }

    @Test
    void serverHelpDocumentsItsOptions() {
        assertEquals(0, run("help", "server"));
        String help = out.toString();
        assertTrue(help.contains("--config=FILE"), help);
        assertTrue(help.contains("--port=N"), help);
        assertTrue(help.contains("--data-dir=DIR"), help);
    }

    @Test
    void helpNamesTheBenchAndSimulatorTheScriptRuns() {
        assertEquals(0, run("help"));
        assertTrue(out.toString().contains("  bench    Load generator"), out.toString());
        assertTrue(out.toString().contains("  sim      Deterministic simulation"), out.toString());
    }
}
