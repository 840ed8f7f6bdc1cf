package dev.warden.chaos.report;

import dev.warden.chaos.check.Anomaly;
import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.chaos.nemesis.FaultWindow;
import dev.warden.chaos.run.Availability;
import dev.warden.chaos.run.ResourceSample;
import dev.warden.chaos.run.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One run as an HTML page: a timeline (fault windows against throughput, errors and latency, with
 * anomalies marked), each checker's verdict and anomalies, recovery after each heal, the nemesis log,
 * resource plots when sampled, and a link to the raw history.
 */
public final class HtmlReport {
    private static final int WIDTH = 1100;
    private static final int LEFT = 60;
    private static final int RIGHT = 20;
    private static final String[] MEMBER_COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"};

    private HtmlReport() {
    }

    public static void write(RunResult result, Path file, String historyFileName) throws IOException {
        Files.writeString(file, render(result, historyFileName), StandardCharsets.UTF_8);
    }

    static String render(RunResult r, String historyFileName) {
        StringBuilder h = new StringBuilder();
        String flavour = r.options().flavour().name().toLowerCase(Locale.ROOT);
        h.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>chaos ").append(flavour).append(" seed ")
                .append(r.options().seed()).append("</title><style>")
                .append("body{font-family:sans-serif;margin:20px;max-width:1200px}table{border-collapse:collapse;margin:8px 0}")
                .append("td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;vertical-align:top}")
                .append(".PASS{background:#dfd}.FAIL{background:#fdd}.UNKNOWN{background:#ffd}pre{font-size:12px}")
                .append("</style></head><body>");
        h.append("<h1>Chaos run: ").append(flavour).append(", seed ").append(r.options().seed()).append("</h1>");
        h.append("<p>").append(r.options().members()).append(" members, faults for ")
                .append(r.options().faultFor().toSeconds()).append(" s (").append(r.windows().size())
                .append(" faults), started ").append(Instant.ofEpochMilli(r.startedAtMs())).append(", ")
                .append(r.ops().size()).append(" ops. Verdict: <b>")
                .append(r.valid() ? "no anomaly" : r.anomalyCount() + " anomalies").append("</b>. Raw history: <a href=\"")
                .append(historyFileName).append("\">").append(historyFileName).append("</a>. Replay: <code>./warden chaos --flavour ")
                .append(flavour).append(" --seed ").append(r.options().seed()).append(" --seconds ")
                .append(r.options().faultFor().toSeconds()).append(" --faults ")
                .append(String.join(",", r.options().faults().stream().map(FaultKind::id).toList()))
                .append("</code> (the nemesis replays the same faults; the processes' timing differs).</p>");
        h.append("<h2>Timeline</h2>").append(timeline(r));
        h.append("<h2>Checkers</h2><table><tr><th>checker</th><th>verdict</th><th>what was checked</th></tr>");
        for (CheckResult c : r.checks()) {
            h.append("<tr><td>").append(esc(c.checker())).append("</td><td class=\"").append(c.verdict()).append("\">")
                    .append(c.verdict()).append("</td><td>").append(esc(c.summary())).append("</td></tr>");
        }
        h.append("</table>");
        List<Anomaly> anomalies = r.checks().stream().flatMap(c -> c.anomalies().stream()).toList();
        if (!anomalies.isEmpty()) {
            h.append("<h2>Anomalies</h2>");
            for (Anomaly a : anomalies) {
                h.append("<h3>").append(esc(a.checker())).append(": ").append(esc(a.what())).append(String.format(
                        " (at %.1f s)", a.atNs() / 1e9)).append("</h3><pre>");
                a.evidence().forEach(line -> h.append(esc(line)).append('\n'));
                h.append("</pre>");
            }
        }
        h.append("<h2>Recovery after each heal</h2><table><tr><th>#</th><th>fault</th><th>held (s)</th>")
                .append("<th>first write after heal (ms)</th><th>longest write gap (ms)</th><th>whole again after heal (ms)</th>")
                .append("<th>what was done</th></tr>");
        for (Availability.Recovery rec : r.recoveries()) {
            FaultWindow w = rec.window();
            h.append("<tr><td>").append(w.index()).append("</td><td>").append(w.kind().id()).append("</td><td>")
                    .append(String.format("%.1f", (w.healNs() - w.startNs()) / 1e9)).append("</td><td>")
                    .append(rec.firstWriteAfterHealMs() < 0 ? "none" : rec.firstWriteAfterHealMs()).append("</td><td>")
                    .append(rec.longestWriteGapMs()).append("</td><td>")
                    .append(rec.wholeAfterHealMs() < 0 ? "not within 60 s" : rec.wholeAfterHealMs()).append("</td><td>")
                    .append(esc(w.detail()));
            for (String note : w.notes()) {
                h.append("<br><i>").append(esc(note)).append("</i>");
            }
            h.append("</td></tr>");
        }
        h.append("</table>");
        if (!r.resources().isEmpty()) {
            h.append("<h2>Resources per member</h2>").append(resources(r));
        }
        h.append("<h2>Run log</h2><pre>");
        r.log().forEach(line -> h.append(esc(line)).append('\n'));
        h.append("</pre></body></html>\n");
        return h.toString();
    }

    private static double x(long ns, long runNs) {
        return LEFT + (WIDTH - LEFT - RIGHT) * (double) ns / Math.max(1, runNs);
    }

    private static String timeline(RunResult r) {
        long runNs = r.runNs();
        List<Timeline.Second> seconds = Timeline.of(r.ops(), runNs);
        int laneTop = 10;
        int laneHeight = 40;
        int rateTop = laneTop + laneHeight + 20;
        int rateHeight = 150;
        int latencyTop = rateTop + rateHeight + 30;
        int latencyHeight = 150;
        int height = latencyTop + latencyHeight + 40;
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" font-size=\"11\">");
        // fault windows: held (dark), then until the ensemble was whole again (light)
        for (FaultWindow w : r.windows()) {
            double x0 = x(w.startNs(), runNs);
            double x1 = x(w.healNs(), runNs);
            String colour = colour(w.kind());
            s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %s</title></rect>",
                    x0, laneTop, Math.max(1, x1 - x0), laneHeight, colour, w.kind().id(), esc(w.detail())));
            if (w.wholeAgainNs() > w.healNs()) {
                double x2 = x(w.wholeAgainNs(), runNs);
                s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" opacity=\"0.3\"/>",
                        x1, laneTop, Math.max(1, x2 - x1), laneHeight, colour));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" transform=\"rotate(-90 %.1f %d)\" font-size=\"9\">%s</text>",
                    x0 + 9, laneTop + laneHeight - 2, x0 + 9, laneTop + laneHeight - 2, w.kind().id()));
        }
        s.append("<text x=\"2\" y=\"").append(laneTop + 24).append("\">faults</text>");
        double maxRate = Math.max(1, seconds.stream().mapToDouble(sec -> Math.max(sec.ok(), sec.errors())).max().orElse(1));
        axis(s, rateTop, rateHeight, "ops/s", maxRate, false);
        s.append(polyline(seconds, Timeline.Second::ok, runNs, rateTop, rateHeight, maxRate, false, "#2a2"));
        s.append(polyline(seconds, Timeline.Second::errors, runNs, rateTop, rateHeight, maxRate, false, "#d22"));
        s.append("<text x=\"").append(WIDTH - 260).append("\" y=\"").append(rateTop + 12)
                .append("\"><tspan fill=\"#2a2\">acknowledged/s</tspan>  <tspan fill=\"#d22\">failed or unknown/s</tspan></text>");
        double maxLatency = Math.max(10, seconds.stream().mapToDouble(Timeline.Second::p99Ms).filter(d -> !Double.isNaN(d))
                .max().orElse(10));
        axis(s, latencyTop, latencyHeight, "latency ms (log)", maxLatency, true);
        s.append(polyline(seconds, Timeline.Second::p50Ms, runNs, latencyTop, latencyHeight, maxLatency, true, "#36c"));
        s.append(polyline(seconds, Timeline.Second::p99Ms, runNs, latencyTop, latencyHeight, maxLatency, true, "#c6c"));
        s.append("<text x=\"").append(WIDTH - 200).append("\" y=\"").append(latencyTop + 12)
                .append("\"><tspan fill=\"#36c\">median</tspan>  <tspan fill=\"#c6c\">99th percentile</tspan></text>");
        long runSeconds = runNs / 1_000_000_000L;
        // at most about twenty labels, at round intervals
        int labelEvery = runSeconds <= 600 ? 30 : runSeconds <= 1_200 ? 60 : runSeconds <= 3_600 ? 300 : 900;
        for (int sec = 0; sec <= runSeconds; sec += labelEvery) {
            double xs = x(sec * 1_000_000_000L, runNs);
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%ds</text>", xs - 8, height - 15, sec));
        }
        for (CheckResult c : r.checks()) {
            for (Anomaly a : c.anomalies()) {
                double xa = x(a.atNs(), runNs);
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"red\" stroke-width=\"2\"><title>%s</title></line>",
                        xa, xa, laneTop, height - 30, esc(a.what())));
            }
        }
        s.append("</svg>");
        return s.toString();
    }

    private static void axis(StringBuilder s, int top, int height, String label, double max, boolean log) {
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>",
                LEFT, top, WIDTH - LEFT - RIGHT, height));
        s.append(String.format(Locale.ROOT, "<text x=\"2\" y=\"%d\">%s</text>", top - 4, label));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>", LEFT - 4, top + 10, max));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", LEFT - 4, top + height,
                log ? "1" : "0"));
    }

    private static String polyline(List<Timeline.Second> seconds, ToDoubleFunction<Timeline.Second> value, long runNs,
                                   int top, int height, double max, boolean log, String colour) {
        StringBuilder points = new StringBuilder();
        StringBuilder out = new StringBuilder();
        for (Timeline.Second sec : seconds) {
            double v = value.applyAsDouble(sec);
            if (Double.isNaN(v)) {
                if (points.length() > 0) {
                    out.append(line(points, colour));
                    points.setLength(0);
                }
                continue;
            }
            double fraction = log ? Math.log10(Math.max(1, v)) / Math.log10(max) : v / max;
            double y = top + height - height * Math.min(1, fraction);
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(sec.second() * 1_000_000_000L + 500_000_000L, runNs), y));
        }
        if (points.length() > 0) {
            out.append(line(points, colour));
        }
        return out.toString();
    }

    private static String line(StringBuilder points, String colour) {
        return "<polyline fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.2\" points=\"" + points.toString().trim() + "\"/>";
    }

    private static String resources(RunResult r) {
        StringBuilder s = new StringBuilder();
        List<String[]> panels = List.of(new String[] {"heap after GC (MB)", "heap"}, new String[] {"threads", "threads"},
                new String[] {"open file descriptors", "fds"}, new String[] {"data directory (MB)", "disk"},
                new String[] {"resident memory (MB)", "rss"});
        for (String[] panel : panels) {
            ToDoubleFunction<ResourceSample> f = switch (panel[1]) {
                case "heap" -> ResourceSample::heapAfterGcMb;
                case "threads" -> ResourceSample::threads;
                case "fds" -> ResourceSample::fileDescriptors;
                case "disk" -> ResourceSample::dataDirMb;
                default -> ResourceSample::rssMb;
            };
            s.append(resourcePanel(r, panel[0], f));
        }
        s.append("<p>");
        for (int member = 1; member <= r.options().members(); member++) {
            s.append("<span style=\"color:").append(MEMBER_COLOURS[(member - 1) % MEMBER_COLOURS.length])
                    .append("\">member ").append(member).append("</span> ");
        }
        s.append("</p>").append(LeakTrend.table(r.resources(), r.options().members()));
        return s.toString();
    }

    private static String resourcePanel(RunResult r, String label, ToDoubleFunction<ResourceSample> value) {
        int top = 20;
        int height = 110;
        long runNs = r.runNs();
        double max = Math.max(1, r.resources().stream().mapToDouble(value).max().orElse(1));
        StringBuilder s = new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\""
                + (top + height + 10) + "\" font-size=\"11\">");
        axis(s, top, height, label, max, false);
        for (int member = 1; member <= r.options().members(); member++) {
            StringBuilder points = new StringBuilder();
            for (ResourceSample sample : r.resources()) {
                double v = value.applyAsDouble(sample);
                if (sample.member() != member || v < 0) {
                    continue;
                }
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(sample.atNs(), runNs),
                        top + height - height * v / max));
            }
            if (points.length() > 0) {
                s.append(line(points, MEMBER_COLOURS[(member - 1) % MEMBER_COLOURS.length]));
            }
        }
        return s.append("</svg>").toString();
    }

    static String colour(FaultKind kind) {
        return switch (kind) {
            case PARTITION_LEADER, PARTITION_HALVES, PARTITION_BRIDGE, PARTITION_ONE_WAY, PARTITION_FLAPPING -> "#e8a33d";
            case NET_SLOW, NET_LOSSY -> "#d9d94a";
            case KILL, PAUSE, POWER_CUT -> "#d45d5d";
            case CLOCK -> "#5dbcd4";
            case CLIENT_CUTOFF -> "#9b7ed4";
            case EMPTY_DATA_DIR, SNAPSHOT_CORRUPT, LOG_PURGED, LOG_DAMAGED -> "#8c6d46";
            case DISK_SLOW, DISK_FULL, FSYNC_FAIL, CRASH_LOSE_UNSYNCED -> "#7a7a7a";
        };
    }

    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
