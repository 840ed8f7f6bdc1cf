package dev.warden.chaos.check;

import java.util.List;

/**
 * A checker's verdict on one run.
 *
 * @param verdict  PASS, FAIL (anomalies found) or UNKNOWN (the checker could not decide, e.g. the search timed out)
 * @param summary  one line: what was checked and how much
 */
public record CheckResult(String checker, Verdict verdict, String summary, List<Anomaly> anomalies) {
    public enum Verdict { PASS, FAIL, UNKNOWN }

    public CheckResult {
        anomalies = List.copyOf(anomalies);
        if (verdict == Verdict.FAIL && anomalies.isEmpty()) {
            throw new IllegalArgumentException(checker + " failed without naming an anomaly");
        }
    }

    public static CheckResult of(String checker, String summary, List<Anomaly> anomalies) {
        return new CheckResult(checker, anomalies.isEmpty() ? Verdict.PASS : Verdict.FAIL, summary, anomalies);
    }
}
