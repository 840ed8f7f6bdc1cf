package dev.warden.bench.report;

import dev.warden.bench.scale.ScaleDimension;
import dev.warden.bench.scale.ScalePoint;
import dev.warden.cli.cluster.Flavour;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One dimension of {@code bench scale} as an SVG: throughput and p99 against the dimension, one
 * line per server, both axes logarithmic (the points grow by factors, and a cost that grows
 * linearly is then a line of slope 1 on the latency panel).
 */
public final class ScalePlot {
    private static final int PANEL_WIDTH_PX = 340;
    private static final int PANEL_HEIGHT_PX = 200;
    private static final int LEFT_PX = 50;
    private static final int TOP_PX = 50;
    private static final int GAP_PX = 70;
    private static final String APACHE_COLOUR = "#9e9e9e";
    private static final String WARDEN_COLOUR = "#1f6fb2";

    private ScalePlot() {
    }

    public static String render(ScaleDimension dimension, List<ScalePoint> points) {
        int panels = dimension.extraLabel().isPresent() ? 3 : 2;
        int width = LEFT_PX + panels * PANEL_WIDTH_PX + (panels - 1) * GAP_PX + 30;
        int height = TOP_PX + PANEL_HEIGHT_PX + 60;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"10\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(text(LEFT_PX, 16, "bench scale: " + dimension.axisLabel(), 13, "start"));
        legend(svg, width - 230, 8);
        List<ScalePoint> measured = points.stream().filter(p -> p.dimension() == dimension && p.measured()).toList();
        panel(svg, LEFT_PX, TOP_PX, dimension.throughputLabel() + " (higher is better)", measured,
                ScalePoint::throughput, dimension);
        panel(svg, LEFT_PX + PANEL_WIDTH_PX + GAP_PX, TOP_PX, dimension.latencyLabel() + " (lower is better)",
                measured, p -> p.p99Us() / 1000.0, dimension);
        dimension.extraLabel().ifPresent(label -> panel(svg, LEFT_PX + 2 * (PANEL_WIDTH_PX + GAP_PX), TOP_PX,
                label + " (lower is better)", measured, ScalePoint::extra, dimension));
        return svg.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder svg, int left, int top, String title, List<ScalePoint> points,
                              ToDoubleFunction<ScalePoint> metric, ScaleDimension dimension) {
        svg.append(text(left, top - 10, title, 11, "start"));
        int bottom = top + PANEL_HEIGHT_PX;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#333\"/>%n", left, top, PANEL_WIDTH_PX, PANEL_HEIGHT_PX));
        if (points.isEmpty()) {
            svg.append(text(left + PANEL_WIDTH_PX / 2, top + PANEL_HEIGHT_PX / 2, "no figures", 11, "middle"));
            return;
        }
        double minX = points.stream().mapToDouble(p -> p.x()).min().orElse(1);
        double maxX = points.stream().mapToDouble(p -> p.x()).max().orElse(10);
        double minY = points.stream().mapToDouble(metric).filter(v -> v > 0).min().orElse(1);
        double maxY = points.stream().mapToDouble(metric).max().orElse(10);
        Log xAxis = new Log(minX, maxX, left, left + PANEL_WIDTH_PX);
        Log yAxis = new Log(minY / 1.5, maxY * 1.5, bottom, top);
        for (long x : points.stream().mapToLong(ScalePoint::x).distinct().sorted().toArray()) {
            int px = xAxis.at(x);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    px, top, px, bottom));
            svg.append(text(px, bottom + 14, dimension == ScaleDimension.VALUE_SIZE ? bytes(x)
                    : SvgPlot.compactCount(x), 9, "middle"));
        }
        svg.append(text(left + PANEL_WIDTH_PX / 2, bottom + 30, dimension.axisLabel() + " (log scale)", 10, "middle"));
        svg.append(text(left - 4, top + 8, SvgPlot.compactCount(maxY * 1.5), 9, "end"));
        svg.append(text(left - 4, bottom, SvgPlot.compactCount(minY / 1.5), 9, "end"));
        for (Flavour flavour : Flavour.values()) {
            List<ScalePoint> line = points.stream().filter(p -> p.flavour() == flavour)
                    .sorted(java.util.Comparator.comparingLong(ScalePoint::x)).toList();
            String colour = flavour == Flavour.WARDEN ? WARDEN_COLOUR : APACHE_COLOUR;
            StringBuilder path = new StringBuilder();
            for (ScalePoint p : line) {
                double v = Math.max(metric.applyAsDouble(p), minY / 1.5);
                int px = xAxis.at(p.x());
                int py = yAxis.at(v);
                path.append(path.length() == 0 ? "M" : " L").append(px).append(' ').append(py);
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\"/>%n", px, py,
                        colour));
                svg.append(text(px + 4, py - 5, value(metric.applyAsDouble(p)), 8, "start"));
            }
            if (line.size() > 1) {
                svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                        path, colour));
            }
        }
    }

    /** A logarithmic axis from {@code low..high} onto the pixels {@code from..to}. */
    private record Log(double low, double high, int from, int to) {
        int at(double value) {
            double span = Math.log(high) - Math.log(low);
            double t = span <= 0 ? 0.5 : (Math.log(value) - Math.log(low)) / span;
            return (int) Math.round(from + t * (to - from));
        }
    }

    static String bytes(long count) {
        if (count >= 1 << 20) {
            return (count >> 20) + " MiB";
        }
        if (count >= 1 << 10) {
            return (count >> 10) + " KiB";
        }
        return count + " B";
    }

    private static String value(double v) {
        return v >= 1000 ? SvgPlot.compactCount(v) : String.format(Locale.ROOT, "%.3g", v);
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
                x, y, sizePx, anchor, SvgPlot.escape(content));
    }
}
