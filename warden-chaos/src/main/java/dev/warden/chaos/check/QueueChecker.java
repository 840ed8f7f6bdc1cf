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
 * The queue: producers {@code enqueue} unique values as sequential children; consumers
 * {@code dequeue} by deleting the lowest child after reading it (input value, the item read;
 * OK when the delete was acknowledged); the end reads what is left ({@code final}, one op per item, output value). Each
 * item is taken at most once, nothing is taken or left that nobody enqueued, and every acknowledged
 * item is taken or left (a dequeue whose delete went unanswered may have taken it).
 */
public final class QueueChecker implements Checker {
    public static final String NAME = "queue (each item taken once)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        Map<Long, Op> enqueued = new HashMap<>();
        Set<Long> acknowledged = new HashSet<>();
        Map<Long, Op> taken = new HashMap<>();
        Set<Long> maybeTaken = new HashSet<>();
        Map<Long, Op> left = new HashMap<>();
        List<Anomaly> anomalies = new ArrayList<>();
        boolean finalRead = false;
        for (Op op : ops) {
            switch (op.f()) {
                case "enqueue" -> {
                    if (op.outcome() != Outcome.FAIL) {
                        enqueued.put(op.in("value"), op);
                    }
                    if (op.ok()) {
                        acknowledged.add(op.in("value"));
                    }
                }
                case "dequeue" -> {
                    if (op.ok()) {
                        long value = op.in("value");
                        Op twice = taken.put(value, op);
                        if (twice != null) {
                            anomalies.add(new Anomaly(NAME, "item " + value + " taken twice", op.completeNs(),
                                    List.of(twice.describe(), op.describe())));
                        }
                    } else if (op.outcome() == Outcome.UNKNOWN) {
                        maybeTaken.add(op.in("value"));
                    }
                }
                case "final" -> {
                    finalRead = true;
                    left.put(op.out("value"), op);
                }
                case "final-empty" -> finalRead = true;
                default -> throw new IllegalArgumentException("the queue workload has no op " + op.f());
            }
        }
        for (Map.Entry<Long, Op> take : taken.entrySet()) {
            if (!enqueued.containsKey(take.getKey())) {
                anomalies.add(new Anomaly(NAME, "item " + take.getKey() + " taken but never enqueued",
                        take.getValue().completeNs(), List.of(take.getValue().describe())));
            }
            Op stillThere = left.get(take.getKey());
            if (stillThere != null) {
                anomalies.add(new Anomaly(NAME, "item " + take.getKey() + " taken, yet still in the queue at the end",
                        stillThere.completeNs(), List.of(take.getValue().describe(), stillThere.describe())));
            }
        }
        for (Map.Entry<Long, Op> item : left.entrySet()) {
            if (!enqueued.containsKey(item.getKey())) {
                anomalies.add(new Anomaly(NAME, "item " + item.getKey() + " in the queue but never enqueued",
                        item.getValue().completeNs(), List.of(item.getValue().describe())));
            }
        }
        if (finalRead) {
            for (long value : acknowledged) {
                if (!taken.containsKey(value) && !left.containsKey(value) && !maybeTaken.contains(value)) {
                    Op put = enqueued.get(value);
                    anomalies.add(new Anomaly(NAME, "lost: acknowledged item " + value + " neither taken nor left",
                            put.completeNs(), List.of(put.describe())));
                }
            }
        }
        String summary = acknowledged.size() + " acknowledged enqueues, " + taken.size() + " taken, " + left.size()
                + " left" + (finalRead ? "" : " (no final read: lost items not checked)");
        if (anomalies.isEmpty() && !finalRead) {
            return new CheckResult(NAME, CheckResult.Verdict.UNKNOWN, summary, List.of());
        }
        return CheckResult.of(NAME, summary, anomalies);
    }
}
