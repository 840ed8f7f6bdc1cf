package dev.warden.chaos.run;

import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.history.Op;
import dev.warden.chaos.nemesis.FaultWindow;
import java.util.List;

/** Everything one run produced: for the report, the JSON history and the command's verdict. */
public record RunResult(RunOptions options, long startedAtMs, long runNs, List<FaultWindow> windows,
                        List<Availability.Recovery> recoveries, List<CheckResult> checks, List<Op> ops,
                        List<ResourceSample> resources, List<String> log) {
    public boolean valid() {
        return checks.stream().noneMatch(c -> c.verdict() == CheckResult.Verdict.FAIL);
    }

    public long anomalyCount() {
        return checks.stream().mapToLong(c -> c.anomalies().size()).sum();
    }
}
