package dev.warden.chaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.chaos.check.Anomaly;
import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.chaos.nemesis.FaultWindow;
import dev.warden.chaos.run.Availability;
import dev.warden.chaos.run.RunOptions;
import dev.warden.chaos.run.RunResult;
import dev.warden.cli.cluster.Flavour;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    @TempDir
    Path dir;

    private RunResult run(Flavour flavour, long firstWriteAtMs, boolean anomaly) {
        long s = 1_000_000_000L;
        FaultWindow kill = new FaultWindow(0, FaultKind.KILL, "member 2: kill -9", 2 * s, 4 * s, 6 * s, List.of());
        Op write = new Op(1, 1, "set", "add", "/chaos-set", 4 * s, 4 * s + firstWriteAtMs * 1_000_000, Outcome.OK,
                Map.of("value", 1L), Map.of("seq", 0L, "czxid", 5L), "");
        List<CheckResult> checks = anomaly
                ? List.of(CheckResult.of("set", "1 add", List.of(new Anomaly("set", "lost: value 1", 5 * s,
                        List.of(write.describe())))))
                : List.of(CheckResult.of("set", "1 add", List.of()));
        RunOptions options = new RunOptions(flavour, 3, Duration.ofSeconds(10), 42, List.of(FaultKind.KILL),
                dir.resolve(flavour.name().toLowerCase()), 500, 5_000, 1_000, 2_000, false, "cp", List.of());
        List<FaultWindow> windows = List.of(kill);
        return new RunResult(options, 0, 10 * s, windows, Availability.of(windows, List.of(write)), checks,
                List.of(write), List.of(), List.of("log line"));
    }

    @Test
    void thePageShowsTheFaultTheVerdictTheAnomalyOnTheTimelineAndTheRecovery() {
        String page = HtmlReport.render(run(Flavour.WARDEN, 250, true), "history.json");
        assertTrue(page.contains("<title>kill: member 2: kill -9</title>"), "the fault window is on the timeline");
        assertTrue(page.contains("stroke=\"red\"") && page.contains("<title>lost: value 1</title>"),
                "the anomaly is marked on the timeline");
        assertTrue(page.contains("class=\"FAIL\""), "the checker's verdict");
        assertTrue(page.contains("<td>250</td>"), "first write 250 ms after the heal");
        assertTrue(page.contains("--seed 42"), "the replay command");
    }

    @Test
    void theSummaryComparesMediansPerFaultAndTheHistoryIsJson() throws Exception {
        RunResult warden = run(Flavour.WARDEN, 100, false);
        RunResult apache = run(Flavour.APACHE, 900, false);
        Summary.write(List.of(warden, apache), dir);
        String md = Files.readString(dir.resolve("summary.md"));
        assertTrue(md.contains("| kill | 100 (max 100, n=1) | 900 (max 900, n=1) | 2100 (max 2100, n=1) | "
                + "2900 (max 2900, n=1) |"), md);
        Path json = dir.resolve("h.json");
        HistoryJson.write(warden, json);
        String text = Files.readString(json);
        assertTrue(text.startsWith("{\"run\":{\"flavour\":\"warden\",\"seed\":42"), text);
        assertTrue(text.contains("\"f\":\"add\"") && text.contains("\"firstWriteAfterHealMs\":100"), text);
        assertEquals(text.chars().filter(c -> c == '{').count(), text.chars().filter(c -> c == '}').count());
        assertEquals(warden.ops(), HistoryJson.readOps(json), "a history reads back as it was written");
    }

    @Test
    void theReaderTakesEscapesNestingAndRefusesGarbage() {
        assertEquals(Map.of("a", List.of(1L, -2L, 2.5, "x\"y\n", true), "b", Map.of()),
                JsonReader.parse(" {\"a\": [1, -2, 2.5, \"x\\\"y\\n\", true], \"b\": {}} "));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("{\"a\": }"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[1] 2"));
    }
}
