package dev.warden.bench.report;

import dev.warden.bench.compare.CompareReport;
import dev.warden.bench.compare.ScenarioOutcome;
import dev.warden.bench.compare.Target.Metric;
import dev.warden.bench.compare.Topology;
import dev.warden.bench.etcd.EtcdWorkload;
import dev.warden.bench.load.LoadResult;
import dev.warden.cli.cluster.Flavour;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The etcd section of docs/BENCHMARKS.md: for each scenario that has an etcd counterpart, the three
 * servers' figures with Warden/etcd beside Warden/Apache, from the same alternated rounds.
 */
public final class EtcdReport {
    /** The fence of the etcd section, written by {@code warden bench compare --with-etcd}. */
    public static final DocSplicer.Markers MARKERS =
            new DocSplicer.Markers("<!-- bench:etcd:begin -->", "<!-- bench:etcd:end -->");

    private EtcdReport() {
    }

    /** Whether the run had etcd as a target at all. */
    public static boolean applies(CompareReport report) {
        return report.options().withEtcd();
    }

    public static String render(CompareReport report) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT,
                "Run of %s on %s. Each scenario: %d s warm-up, then %d s measured, per server, %d round%s; etcd goes"
                        + " first in one round and last in the next, while Apache ZooKeeper and Warden alternate as"
                        + " always. Figures are medians over the rounds and the ratios are of the medians.%n",
                report.startedAt().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm zzz", Locale.ROOT)),
                report.machine().describe(), report.options().warmupSeconds(), report.options().measureSeconds(),
                report.options().rounds(), report.options().rounds() == 1 ? "" : "s"));
        for (Topology topology : report.options().topologies()) {
            List<ScenarioOutcome> rows = report.outcomes().stream().filter(o -> o.topology() == topology)
                    .filter(o -> EtcdWorkload.pairedWith(o.scenario().name()).isPresent()).toList();
            if (rows.isEmpty()) {
                continue;
            }
            md.append("\n### ").append(Character.toUpperCase(topology.title().charAt(0)))
                    .append(topology.title().substring(1)).append(" — Warden / etcd\n");
            List<String> notes = rows.stream().filter(o -> o.etcdMissing() != null)
                    .map(o -> o.scenario().name() + ": etcd " + o.etcdMissing().replace('\n', ' ')).distinct()
                    .toList();
            if (!notes.isEmpty()) {
                md.append('\n');
                notes.forEach(note -> md.append("- ").append(note).append('\n'));
            }
            md.append("\n| scenario | etcd operation | load | Apache ops/s | Warden ops/s | etcd ops/s | Warden/Apache"
                    + " ops/s | Warden/etcd ops/s | Apache p99 ms | Warden p99 ms | etcd p99 ms | Warden/etcd p99"
                    + " | Warden/etcd per round |\n");
            md.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
            for (ScenarioOutcome o : rows) {
                LoadResult a = o.results().get(Flavour.APACHE);
                LoadResult w = o.results().get(Flavour.WARDEN);
                Optional<LoadResult> e = o.etcdResult();
                md.append("| ").append(o.scenario().name())
                        .append(" | ").append(EtcdWorkload.pairedWith(o.scenario().name()).orElseThrow().title())
                        .append(" | ").append(o.scenario().load())
                        .append(" | ").append(a == null ? "n/a" : MarkdownReport.ops(a.opsPerSecond()))
                        .append(" | ").append(w == null ? "n/a" : MarkdownReport.ops(w.opsPerSecond()))
                        .append(" | ").append(e.map(r -> MarkdownReport.ops(r.opsPerSecond())).orElse("n/a"))
                        .append(" | ").append(MarkdownReport.ratio(o.ratio(Metric.THROUGHPUT)))
                        .append(" | ").append(MarkdownReport.ratio(o.etcdRatio(Metric.THROUGHPUT)))
                        .append(" | ").append(a == null ? "n/a" : MarkdownReport.ms(a.p99Us()))
                        .append(" | ").append(w == null ? "n/a" : MarkdownReport.ms(w.p99Us()))
                        .append(" | ").append(e.map(r -> MarkdownReport.ms(r.p99Us())).orElse("n/a"))
                        .append(" | ").append(MarkdownReport.ratio(o.etcdRatio(Metric.P99)))
                        .append(" | ").append(perRound(o.etcdThroughputRatiosPerRound()))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    private static String perRound(List<Double> ratios) {
        return ratios.isEmpty() ? "n/a" : ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r))
                .collect(Collectors.joining(", "));
    }
}
