package dev.warden.bench.compare;

import dev.warden.bench.report.MachineInfo;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * Everything one comparison run produced, with what is needed to judge it: when, where (the
 * machine, and how fast its disk syncs a small write), how.
 */
public record CompareReport(ZonedDateTime startedAt, MachineInfo machine, DiskLatency disk, CompareOptions options,
                            List<ScenarioOutcome> outcomes) {
    public CompareReport {
        outcomes = List.copyOf(outcomes);
    }
}
