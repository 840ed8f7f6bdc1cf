package dev.warden.chaos.check;

import java.util.List;

/**
 * One thing a checker found wrong: what, when (run time, for the timeline), and the ops that show it.
 *
 * @param atNs     run time of the evidence (usually the completion of the op that shows it)
 * @param evidence one line per op or fact, for the report
 */
public record Anomaly(String checker, String what, long atNs, List<String> evidence) {
    public Anomaly {
        evidence = List.copyOf(evidence);
    }
}
