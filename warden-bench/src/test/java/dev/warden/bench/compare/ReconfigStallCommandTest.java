package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A smoke test of {@code warden bench reconfig}: one round against Warden alone runs, adds and
 * removes the fourth member and prints its stalls; no figure is judged. And the summary's medians.
 */
class ReconfigStallCommandTest {
    private static final Instant AT = Instant.parse("2026-11-29T09:00:00Z");

    @TempDir
    Path dir;

    @Test
    void oneWardenRoundAddsAndRemovesAMemberAndPrintsItsStalls() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("reconfig", "--servers", "warden", "--rounds", "1", "--settle", "1",
                "--writers", "2", "--heap-mb", "256", "--work-dir", dir.resolve("work").toString());

        assertEquals(0, status, () -> out + "\n" + err);
        assertTrue(out.toString().matches("(?s)round 1 Warden +add: longest stall +\\d+ ms \\(from \\+\\d+ ms\\) +remove: +\\d+ ms \\(from \\+\\d+ ms\\) +no change: \\d+ ms +\\(\\d+ failed writes; requests sent at \\d\\d:\\d\\d:\\d\\d\\.\\d{3} and \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC\\).*"),
                out::toString);
        assertTrue(out.toString().contains("| add a 4th member | "), out::toString);
    }

    @Test
    void theSummaryGivesMediansAndTheRatio() {
        List<ReconfigStallRun.Stalls> warden = List.of(new ReconfigStallRun.Stalls(100, 5, 40, 5, 0, AT, AT, 7),
                new ReconfigStallRun.Stalls(300, 5, 20, 5, 0, AT, AT, 7), new ReconfigStallRun.Stalls(200, 5, 30, 5, 0, AT, AT, 7));
        List<ReconfigStallRun.Stalls> apache = List.of(new ReconfigStallRun.Stalls(400, 5, 60, 5, 0, AT, AT, 7),
                new ReconfigStallRun.Stalls(500, 5, 80, 5, 0, AT, AT, 7), new ReconfigStallRun.Stalls(450, 5, 70, 5, 0, AT, AT, 7));
        String table = ReconfigStallCommand.summary(warden, apache);
        assertTrue(table.contains("| add a 4th member | 200 ms [100, 300, 200] | 450 ms [400, 500, 450] | 0.44× |"),
                table);
        assertTrue(table.contains("| remove it | 30 ms [40, 20, 30] | 70 ms [60, 80, 70] | 0.43× |"), table);
        assertTrue(table.contains("| no change (the 3 s before the add) | 7 ms [7, 7, 7] | 7 ms [7, 7, 7] | 1.00× |"), table);
        assertEquals(25, StallTable.median(new long[] {30, 20}));
    }
}
