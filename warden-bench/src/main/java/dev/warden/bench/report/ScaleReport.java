package dev.warden.bench.report;

import dev.warden.bench.scale.ScaleDimension;
import dev.warden.bench.scale.ScalePoint;
import dev.warden.cli.cluster.Flavour;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The scale sections of docs/PERFORMANCE.md, one per dimension with the run that measured it, so a
 * run of some dimensions leaves the others' figures as they are: a table per dimension, both
 * servers side by side.
 */
public final class ScaleReport {
    private ScaleReport() {
    }

    /** The fence of the section {@code warden bench scale} writes for {@code dimension}. */
    public static DocSplicer.Markers markers(ScaleDimension dimension) {
        return new DocSplicer.Markers("<!-- bench:scale:" + dimension.cliName() + ":begin -->",
                "<!-- bench:scale:" + dimension.cliName() + ":end -->");
    }

    /**
     * One dimension's section: its heading, the run's header, the table, failures and the plot.
     *
     * @param header  when and where the run was, how long each point ran
     * @param plot    the dimension's plot as the document links it, or none
     */
    public static String section(String header, ScaleDimension dimension, List<ScalePoint> points,
                                 Optional<String> plot) {
        StringBuilder md = new StringBuilder();
        md.append("#### ").append(dimension.cliName()).append(": ").append(dimension.axisLabel()).append("\n\n");
        md.append(header.strip()).append("\n\n");
        md.append("| ").append(dimension.cliName()).append(" | Apache ").append(dimension.throughputLabel())
                .append(" | Warden ").append(dimension.throughputLabel()).append(" | Warden/Apache | Apache p50 ms"
                        + " | Warden p50 ms | Apache p99 ms | Warden p99 ms |");
        dimension.extraLabel().ifPresent(label -> md.append(" Apache ").append(label).append(" | Warden ")
                .append(label).append(" |"));
        md.append("\n|--:|--:|--:|--:|--:|--:|--:|--:|").append(dimension.extraLabel().isPresent() ? "--:|--:|" : "")
                .append('\n');
        List<Long> xs = points.stream().filter(p -> p.dimension() == dimension).map(ScalePoint::x).distinct()
                .sorted().toList();
        for (long x : xs) {
            Optional<ScalePoint> a = find(points, dimension, x, Flavour.APACHE);
            Optional<ScalePoint> w = find(points, dimension, x, Flavour.WARDEN);
            md.append("| ").append(dimension == ScaleDimension.VALUE_SIZE ? ScalePlot.bytes(x)
                            : String.format(Locale.ROOT, "%,d", x))
                    .append(" | ").append(a.map(ScaleReport::throughput).orElse("not run"))
                    .append(" | ").append(w.map(ScaleReport::throughput).orElse("not run"))
                    .append(" | ").append(ratio(a, w))
                    .append(" | ").append(a.map(p -> ms(p.p50Us(), p)).orElse(""))
                    .append(" | ").append(w.map(p -> ms(p.p50Us(), p)).orElse(""))
                    .append(" | ").append(a.map(p -> ms(p.p99Us(), p)).orElse(""))
                    .append(" | ").append(w.map(p -> ms(p.p99Us(), p)).orElse(""))
                    .append(" |");
            if (dimension.extraLabel().isPresent()) {
                md.append(' ').append(a.map(ScaleReport::extra).orElse("")).append(" | ")
                        .append(w.map(ScaleReport::extra).orElse("")).append(" |");
            }
            md.append('\n');
        }
        List<ScalePoint> failed = points.stream().filter(p -> p.dimension() == dimension && !p.measured())
                .toList();
        if (!failed.isEmpty()) {
            md.append('\n');
            failed.forEach(p -> md.append("- ").append(p.flavour().title()).append(" at ").append(p.x())
                    .append(": ").append(p.failure().replace('\n', ' ')).append('\n'));
        }
        plot.ifPresent(link -> md.append("\n![").append(dimension.cliName()).append("](").append(link)
                .append(")\n"));
        return md.toString();
    }

    private static Optional<ScalePoint> find(List<ScalePoint> points, ScaleDimension dimension, long x,
                                             Flavour flavour) {
        return points.stream().filter(p -> p.dimension() == dimension && p.x() == x && p.flavour() == flavour)
                .findFirst();
    }

    private static String throughput(ScalePoint p) {
        return p.measured() ? String.format(Locale.ROOT, "%,.0f", p.throughput()) : "failed";
    }

    private static String extra(ScalePoint p) {
        return p.measured() && !Double.isNaN(p.extra()) ? figure(p.extra()) : "";
    }

    /** Three significant digits below 100 (0.512, 23.4), whole numbers above (4,210). */
    public static String figure(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.3g", value);
    }

    private static String ms(long micros, ScalePoint p) {
        return p.measured() ? String.format(Locale.ROOT, "%.2f", micros / 1000.0) : "";
    }

    private static String ratio(Optional<ScalePoint> a, Optional<ScalePoint> w) {
        if (a.isEmpty() || w.isEmpty() || !a.get().measured() || !w.get().measured() || a.get().throughput() == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f×", w.get().throughput() / a.get().throughput());
    }
}
