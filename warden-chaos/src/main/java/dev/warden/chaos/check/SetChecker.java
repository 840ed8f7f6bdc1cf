package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The set workload: clients add unique values as sequential children of one node ({@code add},
 * input value); at the end every child is read ({@code final}, one op per child, output value).
 * Nothing acknowledged may be missing at the end (lost), nothing may be there that nobody tried to
 * add (invented), and no value may be there twice (an add applied twice).
 */
public final class SetChecker implements Checker {
    public static final String NAME = "set (no lost or invented element)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        Map<Long, Op> attempted = new HashMap<>();
        Set<Long> acknowledged = new HashSet<>();
        Map<Long, Op> present = new HashMap<>();
        List<Anomaly> anomalies = new ArrayList<>();
        boolean finalRead = false;
        for (Op op : ops) {
            switch (op.f()) {
                case "add" -> {
                    if (op.outcome() != Outcome.FAIL) {
                        attempted.put(op.in("value"), op);
                    }
                    if (op.ok()) {
                        acknowledged.add(op.in("value"));
                    }
                }
                case "final" -> {
                    finalRead = true;
                    long value = op.out("value");
                    Op earlier = present.put(value, op);
                    if (earlier != null) {
                        anomalies.add(new Anomaly(NAME, "duplicated: value " + value + " is present twice",
                                op.completeNs(), List.of(earlier.describe(), op.describe())));
                    }
                }
                case "final-empty" -> finalRead = true;
                default -> throw new IllegalArgumentException("the set workload has no op " + op.f());
            }
        }
        if (!finalRead) {
            return new CheckResult(NAME, CheckResult.Verdict.UNKNOWN, "no final read (the ensemble never served "
                    + "one at the end)", List.of());
        }
        for (long value : acknowledged) {
            if (!present.containsKey(value)) {
                Op add = attempted.get(value);
                anomalies.add(new Anomaly(NAME, "lost: acknowledged value " + value + " is missing at the end",
                        add.completeNs(), List.of(add.describe())));
            }
        }
        for (Map.Entry<Long, Op> found : present.entrySet()) {
            if (!attempted.containsKey(found.getKey())) {
                anomalies.add(new Anomaly(NAME, "invented: value " + found.getKey() + " was never added",
                        found.getValue().completeNs(), List.of(found.getValue().describe())));
            }
        }
        long unknownPresent = present.keySet().stream().filter(v -> !acknowledged.contains(v)).count();
        return CheckResult.of(NAME, acknowledged.size() + " acknowledged adds, " + attempted.size()
                + " attempted, " + present.size() + " present at the end (" + unknownPresent
                + " of them from unacknowledged adds)", anomalies);
    }
}
