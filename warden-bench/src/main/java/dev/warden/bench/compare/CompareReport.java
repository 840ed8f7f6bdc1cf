package dev.warden.bench.compare;

import dev.warden.bench.report.MachineInfo;
import java.time.ZonedDateTime;
import java.util.List;

/** Everything one comparison run produced, with what is needed to judge it: when, where, how. */
public record CompareReport(ZonedDateTime startedAt, MachineInfo machine, CompareOptions options,
                            List<Outcome> outcomes) {
    public CompareReport {
        outcomes = List.copyOf(outcomes);
    }
}
