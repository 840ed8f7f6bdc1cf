package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A smoke test of {@code warden bench resync}: one round against Warden alone loads the tree,
 * empties a follower, sees it rejoin holding the data and prints the stalls; no figure is
 * judged. And the summary's medians.
 */
class ResyncStallCommandTest {
    @TempDir
    Path dir;

    @Test
    void oneWardenRoundEmptiesAFollowerThatRejoinsWithTheData() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("resync", "--servers", "warden", "--rounds", "1", "--settle", "1", "--znodes", "3000",
                "--writers", "2", "--heap-mb", "256", "--work-dir", dir.resolve("work").toString());

        assertEquals(0, status, () -> out + "\n" + err);
        assertTrue(out.toString().matches("(?s)round 1 Warden +rejoin: longest stall +\\d+ ms \\(from \\+\\d+ ms\\),"
                + " follower serving after \\d+ ms +no change: \\d+ ms +\\(\\d+ failed writes\\).*"), out::toString);
        assertTrue(out.toString().contains("| longest write stall while an emptied follower rejoins (3,000 znodes) | "),
                out::toString);
    }

    @Test
    void theSummaryGivesMediansAndTheRatio() {
        List<ResyncStallRun.Stalls> warden = List.of(new ResyncStallRun.Stalls(100, 5, 4000, 9, 0),
                new ResyncStallRun.Stalls(120, 5, 5000, 11, 0), new ResyncStallRun.Stalls(80, 5, 6000, 10, 0));
        List<ResyncStallRun.Stalls> apache = List.of(new ResyncStallRun.Stalls(200, 5, 3000, 10, 0),
                new ResyncStallRun.Stalls(150, 5, 2000, 10, 0));
        String table = ResyncStallCommand.summary(300_000, warden, apache);
        assertTrue(table.contains("| longest write stall while an emptied follower rejoins (300,000 znodes) | 100 ms"
                + " [100, 120, 80] | 175 ms [200, 150] | 0.57× |"), table);
        assertTrue(table.contains("| longest write stall, no change (the 3 s before the kill) | 10 ms [9, 11, 10] |"
                + " 10 ms [10, 10] | 1.00× |"), table);
        assertTrue(table.contains("| from the follower's restart until it serves | 5000 ms [4000, 5000, 6000] |"
                + " 2500 ms [3000, 2000] | 2.00× |"), table);
    }
}
