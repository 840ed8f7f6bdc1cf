package dev.warden.bench.report;

import dev.warden.bench.compare.CompareReport;
import dev.warden.bench.compare.ScenarioOutcome;
import dev.warden.bench.compare.Target.Metric;
import dev.warden.bench.compare.Target;
import dev.warden.bench.compare.Topology;
import dev.warden.bench.load.LoadResult;
import dev.warden.cli.cluster.Flavour;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** The results section of docs/BENCHMARKS.md: a ratio table per topology, then the absolute figures. */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    public static String render(CompareReport report) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT,
                "Run of %s on %s.%n%n"
                        + "Each scenario: %d s warm-up, then %d s measured, per server; the order of the two servers"
                        + " alternates from one scenario to the next. Load client: %s, in the runner's JVM; in"
                        + " plaintext the session storm and the fan-out's watchers speak the protocol on sockets"
                        + " of their own instead (BENCHMARKS.md, \"The workloads\")."
                        + " Every member: its own JVM, -Xms/-Xmx %d MiB, fsync on, loopback. Server CPU per operation:"
                        + " the user and system time of every member's JVM over the measured window (Linux's"
                        + " /proc/<pid>/stat), divided by the operations that completed in it. The disk under the work"
                        + " directory syncs a 1 KiB write in %d µs (p50; p99 %d µs), timed before the run.%n",
                report.startedAt().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm zzz", Locale.ROOT)),
                report.machine().describe(), report.options().warmupSeconds(), report.options().measureSeconds(),
                report.options().client().description(),
                report.options().jvm().heapMb(), report.disk().p50Us(), report.disk().p99Us()));
        int rounds = report.options().rounds();
        if (rounds > 1) {
            md.append(String.format(Locale.ROOT, "%nEvery scenario ran %d times against each server (%d rounds; which"
                    + " server goes first alternates from round to round). Each figure below is the median of a"
                    + " server's %d runs, and the ratios are of those medians; \"ratio per round\" divides the two"
                    + " runs of each round, which ran back to back, to show how far the ratio moves with the"
                    + " machine.%n", rounds, rounds, rounds));
        }
        if (report.options().jitWarmupSeconds() > 0) {
            md.append(String.format(Locale.ROOT, "%nEvery deployment first ran %d s of unmeasured load (mixed reads"
                    + " and writes, creates and deletes) right after it started, so the JIT compilers of both servers"
                    + " are done before the first scenario.%n", report.options().jitWarmupSeconds()));
        }
        for (Topology topology : report.options().topologies()) {
            List<ScenarioOutcome> rows = report.outcomes().stream().filter(o -> o.topology() == topology).toList();
            md.append("\n### ").append(capitalized(topology.title())).append(" — Warden / Apache\n");
            List<String> notes = rows.stream().flatMap(o -> o.missing().entrySet().stream())
                    .map(e -> e.getKey().title() + ": " + e.getValue().replace('\n', ' ')).distinct().toList();
            if (!notes.isEmpty()) {
                md.append('\n');
                notes.forEach(note -> md.append("- ").append(note).append('\n'));
            }
            md.append("\n| scenario | load | Apache ops/s | Warden ops/s | ops/s ratio | Apache p99 ms | Warden p99 ms"
                    + " | p99 ratio | p99.9 ratio | p50 ratio | server CPU/op ratio | targets |")
                    .append(rounds > 1 ? " ratio per round |\n" : "\n");
            md.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|").append(rounds > 1 ? "---|\n" : "\n");
            for (ScenarioOutcome o : rows) {
                LoadResult a = o.results().get(Flavour.APACHE);
                LoadResult w = o.results().get(Flavour.WARDEN);
                md.append("| ").append(o.scenario().name()).append(" | ").append(o.scenario().load())
                        .append(" | ").append(a == null ? "n/a" : ops(a.opsPerSecond()))
                        .append(" | ").append(w == null ? "n/a" : ops(w.opsPerSecond()))
                        .append(" | ").append(ratio(o.ratio(Metric.THROUGHPUT)))
                        .append(" | ").append(a == null ? "n/a" : ms(a.p99Us()))
                        .append(" | ").append(w == null ? "n/a" : ms(w.p99Us()))
                        .append(" | ").append(ratio(o.ratio(Metric.P99)))
                        .append(" | ").append(ratio(o.ratio(Metric.P999)))
                        .append(" | ").append(ratio(o.ratio(Metric.P50)))
                        .append(" | ").append(ratio(o.ratio(Metric.SERVER_CPU)))
                        .append(" | ").append(targets(o)).append(" |");
                if (rounds > 1) {
                    md.append(' ').append(perRound(o)).append(" |");
                }
                md.append('\n');
            }
            DurableWriteFloor.of(topology, rows, report.disk())
                    .ifPresent(floor -> md.append('\n').append(floor.describe(topology)).append('\n'));
        }
        md.append("\n### Absolute figures\n\n");
        md.append("| topology | scenario | server | ops/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms"
                + " | server CPU µs/op | errors |\n");
        md.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n");
        for (ScenarioOutcome o : report.outcomes()) {
            for (Flavour flavour : Flavour.values()) {
                LoadResult r = o.results().get(flavour);
                md.append("| ").append(o.topology().title()).append(" | ").append(o.scenario().name())
                        .append(" | ").append(flavour.title()).append(" | ");
                if (r == null) {
                    md.append("n/a | | | | | | | ").append(o.missing().containsKey(flavour) ? "not run" : "").append(" |\n");
                } else {
                    md.append(ops(r.opsPerSecond())).append(" | ").append(ms(r.p50Us())).append(" | ")
                            .append(ms(r.p90Us())).append(" | ").append(ms(r.p99Us())).append(" | ")
                            .append(ms(r.p999Us())).append(" | ").append(ms(r.maxUs())).append(" | ")
                            .append(r.hasServerCpu() ? String.format(Locale.ROOT, "%.1f", r.serverCpuUsPerOp()) : "n/a")
                            .append(" | ")
                            .append(r.errors().isEmpty() ? "0" : r.errors().entrySet().stream()
                                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")))
                            .append(" |\n");
                }
            }
        }
        return md.toString();
    }

    /** Each target with its verdict: "ops/s ≥ 2× ✔", "✘", or "?" when a ratio is missing. */
    static String targets(ScenarioOutcome outcome) {
        List<Target> targets = outcome.scenario().targetsIn(outcome.topology());
        if (targets.isEmpty()) {
            return "—";
        }
        return targets.stream().map(t -> {
            OptionalDouble r = outcome.ratio(t.metric());
            String verdict = r.isEmpty() ? "?" : t.isMetBy(r.getAsDouble()) ? "met" : "**missed**";
            return t.describe() + " " + verdict;
        }).collect(Collectors.joining("; "));
    }

    /** "2.41, 2.55, 2.47": Warden/Apache ops/s of each round, or "n/a" unless both ran every round. */
    static String perRound(ScenarioOutcome outcome) {
        List<Double> ratios = outcome.throughputRatiosPerRound();
        return ratios.isEmpty() ? "n/a" : ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r))
                .collect(Collectors.joining(", "));
    }

    static String ratio(OptionalDouble ratio) {
        return ratio.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.2f×", ratio.getAsDouble());
    }

    static String ops(double opsPerSecond) {
        return String.format(Locale.ROOT, "%,.0f", opsPerSecond);
    }

    static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
    }

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
