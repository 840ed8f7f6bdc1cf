package dev.warden.bench.compare;

import java.util.Arrays;
import java.util.Locale;

/** Rows of the stall commands' summary tables: each server's median with its runs, and the Warden/Apache ratio. */
final class StallTable {
    private StallTable() {
    }

    static void row(StringBuilder text, String measure, long[] warden, long[] apache) {
        String ratio = warden.length == 0 || apache.length == 0 || median(apache) == 0 ? "–"
                : String.format(Locale.ROOT, "%.2f×", (double) median(warden) / median(apache));
        text.append("| ").append(measure).append(" | ").append(figure(warden)).append(" | ").append(figure(apache))
                .append(" | ").append(ratio).append(" |\n");
    }

    private static String figure(long[] values) {
        if (values.length == 0) {
            return "–";
        }
        return median(values) + " ms " + Arrays.toString(values);
    }

    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
