package dev.warden.bench.report;

import dev.warden.bench.compare.CompareReport;
import dev.warden.bench.compare.ScenarioOutcome;
import dev.warden.bench.compare.Topology;
import dev.warden.bench.load.LoadResult;
import dev.warden.cli.cluster.Flavour;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * A bar chart of a comparison as SVG: per topology, one panel for throughput and one for p99, two
 * bars (Apache, Warden) per scenario. Scenarios differ by orders of magnitude, so each pair is
 * scaled to its larger bar and the absolute figures are written on the bars.
 */
public final class SvgPlot {
    private static final int GROUP_WIDTH_PX = 64;
    private static final int BAR_WIDTH_PX = 24;
    private static final int PLOT_HEIGHT_PX = 160;
    private static final int PANEL_TOP_PX = 40;
    private static final int LABEL_SPACE_PX = 70;
    private static final int LEFT_PX = 20;
    private static final int PANEL_GAP_PX = 30;
    private static final String APACHE_COLOUR = "#9e9e9e";
    private static final String WARDEN_COLOUR = "#1f6fb2";

    private SvgPlot() {
    }

    public static String render(CompareReport report) {
        List<Topology> topologies = report.options().topologies();
        int groups = report.options().scenarios().size();
        int panelWidth = LEFT_PX + groups * GROUP_WIDTH_PX;
        int rowHeight = PANEL_TOP_PX + PLOT_HEIGHT_PX + LABEL_SPACE_PX;
        int width = 2 * panelWidth + PANEL_GAP_PX + LEFT_PX;
        int height = 40 + topologies.size() * rowHeight;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"10\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(text(LEFT_PX, 16, "Warden vs Apache ZooKeeper — " + report.startedAt().toLocalDate(), 13, "start"));
        legend(svg, width - 220, 10);
        for (int row = 0; row < topologies.size(); row++) {
            Topology topology = topologies.get(row);
            List<ScenarioOutcome> outcomes = report.outcomes().stream().filter(o -> o.topology() == topology).toList();
            int top = 40 + row * rowHeight;
            panel(svg, LEFT_PX, top, topology.title() + ": throughput (ops/s, higher is better)", outcomes,
                    LoadResult::opsPerSecond, SvgPlot::compactCount);
            panel(svg, LEFT_PX + panelWidth + PANEL_GAP_PX, top, topology.title() + ": p99 latency (ms, lower is better)",
                    outcomes, r -> r.p99Us() / 1000.0, v -> String.format(Locale.ROOT, "%.3g", v));
        }
        return svg.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder svg, int left, int top, String title, List<ScenarioOutcome> outcomes,
                              ToDoubleFunction<LoadResult> metric, java.util.function.DoubleFunction<String> format) {
        svg.append(text(left, top + 12, title, 11, "start"));
        int baseline = top + PANEL_TOP_PX + PLOT_HEIGHT_PX - 20;
        int plotHeight = PLOT_HEIGHT_PX - 30;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                left, baseline, left + outcomes.size() * GROUP_WIDTH_PX, baseline));
        for (int i = 0; i < outcomes.size(); i++) {
            ScenarioOutcome outcome = outcomes.get(i);
            int groupLeft = left + i * GROUP_WIDTH_PX + (GROUP_WIDTH_PX - 2 * BAR_WIDTH_PX) / 2;
            LoadResult apache = outcome.results().get(Flavour.APACHE);
            LoadResult warden = outcome.results().get(Flavour.WARDEN);
            double a = apache == null ? 0 : metric.applyAsDouble(apache);
            double w = warden == null ? 0 : metric.applyAsDouble(warden);
            double scale = Math.max(a, w);
            bar(svg, groupLeft, baseline, plotHeight, apache == null ? -1 : a, scale, APACHE_COLOUR, format);
            bar(svg, groupLeft + BAR_WIDTH_PX, baseline, plotHeight, warden == null ? -1 : w, scale, WARDEN_COLOUR, format);
            int labelX = groupLeft + BAR_WIDTH_PX;
            svg.append(String.format(Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-35 %d %d)\">%s</text>%n",
                    labelX, baseline + 14, labelX, baseline + 14, escape(outcome.scenario().name())));
        }
    }

    /** A bar of {@code value} scaled so {@code scale} fills {@code plotHeight}; a negative value means not run. */
    private static void bar(StringBuilder svg, int x, int baseline, int plotHeight, double value, double scale,
                            String colour, java.util.function.DoubleFunction<String> format) {
        if (value < 0) {
            svg.append(text(x + BAR_WIDTH_PX / 2, baseline - 4, "n/a", 9, "middle"));
            return;
        }
        int h = scale <= 0 ? 0 : (int) Math.round(plotHeight * value / scale);
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                x + 1, baseline - h, BAR_WIDTH_PX - 2, h, colour));
        svg.append(text(x + BAR_WIDTH_PX / 2, baseline - h - 3, format.apply(value), 8, "middle"));
    }

    private static void legend(StringBuilder svg, int x, int y) {
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
                x, y, APACHE_COLOUR));
        svg.append(text(x + 14, y + 9, "Apache ZooKeeper", 10, "start"));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
                x + 120, y, WARDEN_COLOUR));
        svg.append(text(x + 134, y + 9, "Warden", 10, "start"));
    }

    private static String text(int x, int y, String content, int sizePx, String anchor) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"%s\">%s</text>%n",
                x, y, sizePx, anchor, escape(content));
    }

    static String compactCount(double value) {
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fM", value / 1_000_000);
        }
        if (value >= 1_000) {
            return String.format(Locale.ROOT, "%.1fk", value / 1_000);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
