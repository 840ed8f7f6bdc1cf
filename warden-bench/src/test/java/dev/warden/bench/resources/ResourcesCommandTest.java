package dev.warden.bench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code warden bench resources} as a user runs it: both servers probed, the document's table replaced. */
class ResourcesCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = BenchMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void probesBothServersAndReplacesTheFiguresSection() throws Exception {
        Path doc = dir.resolve("RESOURCES.md");
        Files.writeString(doc, "# Resources\nintro\n" + ResourceComparison.FIGURES.begin() + "\nold figures\n"
                + ResourceComparison.FIGURES.end() + "\n## How\nprose\n");
        Path work = dir.resolve("work");

        // few idle sessions: opening 10,000 (the default) takes Apache ZooKeeper a minute here
        int status = run("resources", "--znodes", "2000", "--idle-sessions", "300", "--xmx", "256m", "--work-dir",
                work.toString(), "--doc", doc.toString());

        assertEquals(0, status, () -> out + "\n" + err);
        String written = Files.readString(doc);
        assertTrue(written.startsWith("# Resources\nintro\n" + ResourceComparison.FIGURES.begin()), written);
        assertTrue(written.endsWith(ResourceComparison.FIGURES.end() + "\n## How\nprose\n"), written);
        assertTrue(!written.contains("old figures"), written);
        assertTrue(written.contains("with 2,000 znodes"), written);
        assertTrue(written.contains("| idle sessions held, for the next row | sessions | 300 | 300 | 1.00 |"), written);
        // a figure for each server and their ratio
        assertTrue(written.matches("(?s).*\\| heap per znode \\| bytes \\| [0-9,]+ \\| [0-9,]+ \\| [0-9.]+ \\|.*"), written);
        assertTrue(written.matches("(?s).*\\| restart: JVM launch to first read served \\| ms \\| [0-9,]+ \\| [0-9,]+ \\|.*"),
                written);
        assertTrue(written.matches("(?s).*\\| restart with those in the log: JVM launch to first read \\| ms \\| [0-9,]+ \\| [0-9,]+ \\|.*"),
                written);
        assertTrue(out.toString().contains("figures written to " + doc), out::toString);
        // a work directory the user named is kept, with both probes' logs
        assertTrue(Files.exists(work.resolve("warden-probe.log")) && Files.exists(work.resolve("apache-probe.log")));
    }

    @Test
    void usageErrorsAreRefusedBeforeAnythingRuns() throws Exception {
        assertEquals(2, run("resources", "--znodes", "0"));
        assertTrue(err.toString().contains("--znodes must be at least 1"), err::toString);

        assertEquals(2, run("resources", "--idle-sessions", "0"));
        assertTrue(err.toString().contains("--idle-sessions must be at least 1"), err::toString);

        assertEquals(2, run("resources", "--xmx", "lots"));
        assertTrue(err.toString().contains("--xmx must look like 4g"), err::toString);

        // a heap the machine cannot give twice over (probe and restart at once) is refused up front
        assertEquals(2, run("resources", "--xmx", "100000g"));
        assertTrue(err.toString().contains("more than this machine's"), err::toString);
        assertEquals(4L << 30, ResourcesCommand.heapBytes("4g"));
        assertEquals(512L << 20, ResourcesCommand.heapBytes("512M"));
        assertEquals(4096, ResourcesCommand.heapBytes("4096"));

        Path used = Files.createDirectories(dir.resolve("used"));
        Files.writeString(used.resolve("leftover"), "x");
        assertEquals(2, run("resources", "--work-dir", used.toString()));
        assertTrue(err.toString().contains("is not empty"), err::toString);

        // a document that could not take the figures is refused before the probes run for minutes
        Path unmarked = dir.resolve("UNMARKED.md");
        Files.writeString(unmarked, "# Resources\nno markers here\n");
        Path work = dir.resolve("unmarked-work");
        assertEquals(2, run("resources", "--doc", unmarked.toString(), "--work-dir", work.toString()));
        assertTrue(err.toString().contains("lacks the markers"), err::toString);
        assertTrue(!Files.exists(work), "nothing ran");
        assertEquals("# Resources\nno markers here\n", Files.readString(unmarked));
    }
}
