package dev.warden.chaos.report;

import dev.warden.chaos.run.ResourceSample;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Whether a resource keeps growing: per member, the median of the first quarter of the samples
 * against the median of the last quarter. Faults move every figure (a restart resets the heap, a
 * partition piles up a backlog), so only the two ends are compared, not the slope in between.
 */
public final class LeakTrend {
    private LeakTrend() {
    }

    public record Trend(double first, double last) {
        public double growth() {
            return first <= 0 ? 0 : (last - first) / first;
        }
    }

    public static Trend of(List<ResourceSample> samples, int member, ToDoubleFunction<ResourceSample> value) {
        double[] values = samples.stream().filter(s -> s.member() == member).mapToDouble(value).filter(v -> v >= 0)
                .toArray();
        if (values.length < 8) {
            return new Trend(Double.NaN, Double.NaN);
        }
        int quarter = values.length / 4;
        return new Trend(median(values, 0, quarter), median(values, values.length - quarter, values.length));
    }

    private static double median(double[] values, int from, int to) {
        double[] part = java.util.Arrays.copyOfRange(values, from, to);
        java.util.Arrays.sort(part);
        return part[part.length / 2];
    }

    static String table(List<ResourceSample> samples, int members) {
        StringBuilder h = new StringBuilder("<table><tr><th>member</th><th>heap after GC MB (first quarter → last)</th>"
                + "<th>threads</th><th>file descriptors</th><th>data dir MB</th></tr>");
        for (int m = 1; m <= members; m++) {
            h.append("<tr><td>").append(m).append("</td>");
            for (ToDoubleFunction<ResourceSample> f : List.<ToDoubleFunction<ResourceSample>>of(
                    ResourceSample::heapAfterGcMb, ResourceSample::threads, ResourceSample::fileDescriptors,
                    ResourceSample::dataDirMb)) {
                Trend t = of(samples, m, f);
                h.append("<td>").append(Double.isNaN(t.first()) ? "too few samples"
                        : String.format(Locale.ROOT, "%.0f → %.0f", t.first(), t.last())).append("</td>");
            }
            h.append("</tr>");
        }
        return h.append("</table>").toString();
    }
}
