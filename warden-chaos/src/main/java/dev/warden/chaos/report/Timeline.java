package dev.warden.chaos.report;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Per-second figures of a run: acknowledged ops, errors (failed or unknown), and latency of the acknowledged ones. */
public final class Timeline {
    public record Second(int second, int ok, int errors, double p50Ms, double p99Ms) {
    }

    private Timeline() {
    }

    /** By completion second; the final reads and the session checks' records are not client traffic and are left out. */
    public static List<Second> of(List<Op> ops, long runNs) {
        int seconds = (int) (runNs / 1_000_000_000L) + 1;
        int[] ok = new int[seconds];
        int[] errors = new int[seconds];
        List<List<Double>> latencies = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            latencies.add(new ArrayList<>());
        }
        for (Op op : ops) {
            if (op.f().startsWith("final") || op.workload().equals("session") || op.f().equals("watch-window")) {
                continue;
            }
            int s = (int) Math.min(seconds - 1, op.completeNs() / 1_000_000_000L);
            if (op.outcome() == Outcome.OK) {
                ok[s]++;
                latencies.get(s).add((op.completeNs() - op.invokeNs()) / 1e6);
            } else if (!"BADVERSION".equals(op.error()) && !"NONODE".equals(op.error())
                    && !"FENCED".equals(op.error()) && !"TIMEOUT".equals(op.error())) {
                // a refused CAS or a lost race is the workload working, not the service failing
                errors[s]++;
            }
        }
        List<Second> result = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            double[] sorted = latencies.get(s).stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(sorted);
            result.add(new Second(s, ok[s], errors[s], percentile(sorted, 0.5), percentile(sorted, 0.99)));
        }
        return result;
    }

    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }
}
