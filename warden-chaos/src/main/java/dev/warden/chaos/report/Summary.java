package dev.warden.chaos.report;

import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.chaos.run.Availability;
import dev.warden.chaos.run.RunResult;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The page over a batch of runs ({@code index.html}, and the same tables as Markdown in
 * {@code summary.md}): each run's verdicts, and write availability after heals per fault, Warden
 * beside Apache ZooKeeper (median and worst of the time from heal to the first acknowledged write).
 */
public final class Summary {
    private Summary() {
    }

    public static void write(List<RunResult> results, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("summary.md"), markdown(results), StandardCharsets.UTF_8);
        StringBuilder h = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>chaos runs</title>"
                + "<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
                + "padding:3px 8px;font-size:13px}</style></head><body><h1>Chaos runs</h1><table><tr><th>run</th>"
                + "<th>faults</th><th>ops</th><th>verdict</th></tr>");
        for (RunResult r : results) {
            String name = r.options().runDir().getFileName().toString();
            h.append("<tr><td><a href=\"").append(name).append("/report.html\">").append(name).append("</a></td><td>")
                    .append(r.windows().size()).append("</td><td>").append(r.ops().size()).append("</td><td>")
                    .append(verdict(r)).append("</td></tr>");
        }
        h.append("</table><h2>Write availability after a heal (ms from heal to first acknowledged write)</h2>")
                .append(availabilityHtml(results)).append("</body></html>\n");
        Files.writeString(dir.resolve("index.html"), h.toString(), StandardCharsets.UTF_8);
    }

    static String verdict(RunResult r) {
        if (r.valid()) {
            long unknown = r.checks().stream().filter(c -> c.verdict() == CheckResult.Verdict.UNKNOWN).count();
            return unknown == 0 ? "no anomaly" : "no anomaly (" + unknown + " checkers could not decide)";
        }
        return r.anomalyCount() + " anomalies: " + String.join("; ", r.checks().stream()
                .filter(c -> c.verdict() == CheckResult.Verdict.FAIL).map(CheckResult::checker).toList());
    }

    /** Median and max of the first-write-after-heal times of one flavour and fault, or null with none. */
    static long[] stats(List<RunResult> results, Flavour flavour, FaultKind kind) {
        return stats(results, flavour, kind, Availability.Recovery::firstWriteAfterHealMs);
    }

    /** Median and max of one recovery figure of one flavour and fault, or null with none. */
    static long[] stats(List<RunResult> results, Flavour flavour, FaultKind kind,
                        java.util.function.ToLongFunction<Availability.Recovery> figure) {
        List<Long> times = new ArrayList<>();
        for (RunResult r : results) {
            if (r.options().flavour() != flavour) {
                continue;
            }
            for (Availability.Recovery rec : r.recoveries()) {
                if (rec.window().kind() == kind && figure.applyAsLong(rec) >= 0) {
                    times.add(figure.applyAsLong(rec));
                }
            }
        }
        if (times.isEmpty()) {
            return null;
        }
        long[] sorted = times.stream().mapToLong(Long::longValue).sorted().toArray();
        long median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        return new long[] {median, sorted[sorted.length - 1], sorted.length};
    }

    private static String cell(long[] s) {
        return s == null ? "–" : String.format(Locale.ROOT, "%d (max %d, n=%d)", s[0], s[1], s[2]);
    }

    private static String availabilityHtml(List<RunResult> results) {
        StringBuilder h = new StringBuilder("<table><tr><th>fault</th><th>Warden: first write after heal, median</th>"
                + "<th>Apache ZooKeeper</th><th>Warden: longest write gap, median</th><th>Apache ZooKeeper</th></tr>");
        for (FaultKind kind : FaultKind.values()) {
            long[] w = stats(results, Flavour.WARDEN, kind);
            long[] a = stats(results, Flavour.APACHE, kind);
            if (w == null && a == null) {
                continue;
            }
            h.append("<tr><td>").append(kind.id()).append("</td><td>").append(cell(w)).append("</td><td>")
                    .append(cell(a)).append("</td><td>")
                    .append(cell(stats(results, Flavour.WARDEN, kind, Availability.Recovery::longestWriteGapMs)))
                    .append("</td><td>")
                    .append(cell(stats(results, Flavour.APACHE, kind, Availability.Recovery::longestWriteGapMs)))
                    .append("</td></tr>");
        }
        return h.append("</table>").toString();
    }

    static String markdown(List<RunResult> results) {
        StringBuilder m = new StringBuilder("| run | faults | ops | verdict |\n|---|---|---|---|\n");
        for (RunResult r : results) {
            m.append("| ").append(r.options().runDir().getFileName()).append(" | ").append(r.windows().size())
                    .append(" | ").append(r.ops().size()).append(" | ").append(verdict(r)).append(" |\n");
        }
        m.append("\n| fault | Warden: ms to first write after heal, median (max, n) | Apache ZooKeeper "
                + "| Warden: longest write gap in the fault, ms | Apache ZooKeeper |\n|---|---|---|---|---|\n");
        for (FaultKind kind : Arrays.asList(FaultKind.values())) {
            long[] w = stats(results, Flavour.WARDEN, kind);
            long[] a = stats(results, Flavour.APACHE, kind);
            if (w == null && a == null) {
                continue;
            }
            m.append("| ").append(kind.id()).append(" | ").append(cell(w)).append(" | ").append(cell(a)).append(" | ")
                    .append(cell(stats(results, Flavour.WARDEN, kind, Availability.Recovery::longestWriteGapMs)))
                    .append(" | ")
                    .append(cell(stats(results, Flavour.APACHE, kind, Availability.Recovery::longestWriteGapMs)))
                    .append(" |\n");
        }
        return m.toString();
    }
}
