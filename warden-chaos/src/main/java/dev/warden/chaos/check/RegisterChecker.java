package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Linearizability of the CAS registers: each key is its own object (linearizability composes),
 * checked with {@link Linearizability} against {@link CasRegister} from value 0 at version 0 (the
 * workload creates each key that way before its first op). Reads that failed are left out: they
 * observed nothing and changed nothing; so are the UNKNOWN CAS the acknowledged ops prove took no
 * effect ({@link IneffectiveCas}).
 */
public final class RegisterChecker implements Checker {
    public static final String NAME = "register (linearizable CAS)";
    private final long budgetPerKeyMs;

    public RegisterChecker(long budgetPerKeyMs) {
        this.budgetPerKeyMs = budgetPerKeyMs;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        Map<String, List<Op>> byKey = ops.stream()
                // reads without sync may be stale by design; the monotonic-reads checker takes them
                .filter(op -> op.f().equals("cas") || op.f().equals("read"))
                .filter(op -> !(op.f().equals("read") && op.outcome() != Outcome.OK))
                .collect(Collectors.groupingBy(Op::key, TreeMap::new, Collectors.toList()));
        List<Anomaly> anomalies = new ArrayList<>();
        int timedOut = 0;
        long okCas = ops.stream().filter(op -> op.f().equals("cas") && op.ok()).count();
        long unknown = ops.stream().filter(op -> op.outcome() == Outcome.UNKNOWN).count();
        int pruned = 0;
        for (Map.Entry<String, List<Op>> key : byKey.entrySet()) {
            List<Op> searched = IneffectiveCas.prune(key.getValue());
            pruned += key.getValue().size() - searched.size();
            Linearizability.Result result = Linearizability.check(searched, new CasRegister(0, 0), budgetPerKeyMs);
            switch (result.verdict()) {
                case LINEARIZABLE -> { }
                case TIMED_OUT -> timedOut++;
                case NOT_LINEARIZABLE -> {
                    List<String> evidence = new ArrayList<>();
                    evidence.add("no linearization of key " + key.getKey() + " (" + result.opCount() + " ops; at most "
                            + result.linearizedAtMost() + " linearized); the op whose answer no order explains first, "
                            + "then the ops still open at that point:");
                    result.stuckAt().stream().limit(12).map(Op::describe).forEach(evidence::add);
                    long at = result.stuckAt().isEmpty() ? 0 : result.stuckAt().get(0).completeNs();
                    anomalies.add(new Anomaly(NAME, "not linearizable: key " + key.getKey(), at, evidence));
                }
            }
        }
        String summary = byKey.size() + " keys, " + ops.size() + " ops (" + okCas + " acknowledged CAS, " + unknown
                + " unknown, " + pruned + " of them shown ineffective)"
                + (timedOut > 0 ? "; search gave up on " + timedOut + " keys" : "");
        if (anomalies.isEmpty() && timedOut > 0) {
            return new CheckResult(NAME, CheckResult.Verdict.UNKNOWN, summary, List.of());
        }
        return CheckResult.of(NAME, summary, anomalies);
    }
}
