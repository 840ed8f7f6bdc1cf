package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Linearizability of the CAS registers: each key is its own object (linearizability composes),
 * checked with {@link Linearizability} against {@link CasRegister} from value 0 at version 0 (the
 * workload creates each key that way before its first op). Reads that failed are left out: they
 * observed nothing and changed nothing; so are the UNKNOWN CAS the acknowledged ops prove took no
 * effect ({@link IneffectiveCas}).
 *
 * <p>The final reads ({@code final}: each register's value and version after a sync, once every
 * client has stopped; {@code final-empty}: none there) count as one more read of each key, after
 * every other op. A key the clients used that the final reads did not find has vanished (the
 * workload never deletes one), which is an anomaly of its own: no read or CAS of a missing node
 * succeeds, so without them the search would see nothing wrong. Without any final read (the
 * ensemble never served again) that cannot be known, and the verdict is at best UNKNOWN.
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
        boolean finalRead = ops.stream().anyMatch(op -> op.f().equals("final") || op.f().equals("final-empty"));
        Map<String, List<Op>> byKey = ops.stream()
                // reads without sync may be stale by design; the monotonic-reads checker takes them
                .filter(op -> op.f().equals("cas") || op.f().equals("read") || op.f().equals("final"))
                .filter(op -> !(op.f().equals("read") && op.outcome() != Outcome.OK))
                .map(op -> op.f().equals("final") ? asRead(op) : op)
                .collect(Collectors.groupingBy(Op::key, TreeMap::new, Collectors.toList()));
        List<Anomaly> anomalies = new ArrayList<>();
        Set<String> vanished = vanishedKeys(ops);
        if (finalRead) {
            for (String key : vanished) {
                List<String> evidence = new ArrayList<>();
                evidence.add("the workload never deletes a register; the final read (after a sync) did not find "
                        + key + "; its acknowledged ops:");
                ops.stream().filter(op -> op.key().equals(key) && op.ok()).limit(12).map(Op::describe)
                        .forEach(evidence::add);
                long at = ops.stream().filter(op -> op.f().startsWith("final")).mapToLong(Op::completeNs).max()
                        .orElse(0);
                anomalies.add(new Anomaly(NAME, "register vanished: key " + key, at, evidence));
            }
        }
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
                + (timedOut > 0 ? "; search gave up on " + timedOut + " keys" : "")
                + (finalRead ? "; " + vanished.size() + " vanished" : "; no final read, so a vanished register cannot be known");
        if (anomalies.isEmpty() && (timedOut > 0 || !finalRead)) {
            return new CheckResult(NAME, CheckResult.Verdict.UNKNOWN, summary, List.of());
        }
        return CheckResult.of(NAME, summary, anomalies);
    }

    /** The final read of a register as a read at the end of its history. */
    private static Op asRead(Op finalOp) {
        return new Op(finalOp.id(), finalOp.client(), finalOp.workload(), "read", finalOp.key(), finalOp.invokeNs(),
                finalOp.completeNs(), finalOp.outcome(), finalOp.input(), finalOp.output(), finalOp.error());
    }

    /** Keys some client read or wrote (whatever the answer) that the final read did not find. */
    private static Set<String> vanishedKeys(List<Op> ops) {
        Set<String> used = new TreeSet<>();
        Set<String> found = new TreeSet<>();
        for (Op op : ops) {
            switch (op.f()) {
                case "final" -> found.add(op.key());
                case "final-empty" -> { }
                default -> used.add(op.key());
            }
        }
        used.removeAll(found);
        return used;
    }
}
