package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * Watches: a client holds a persistent watch on a node others keep changing. A window
 * ({@code watch-window}) runs from one read of the node's version {@code from} to a later read
 * {@code to} on the same connection, with no disconnect between; a server sends a change's event
 * before any read that sees the change, so exactly {@code to - from} change events arrive in the
 * window ({@code events}), and those that carry a zxid carry increasing ones ({@code outOfOrder}
 * counts the pairs that do not).
 */
public final class WatchChecker implements Checker {
    public static final String NAME = "watches (in zxid order, none missing)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        List<Anomaly> anomalies = new ArrayList<>();
        long windows = 0;
        long events = 0;
        long withZxid = 0;
        for (Op op : ops) {
            if (!op.f().equals("watch-window") || !op.ok()) {
                continue;
            }
            windows++;
            long changes = op.in("to") - op.in("from");
            long seen = op.out("events");
            events += seen;
            withZxid += op.out("withZxid");
            if (seen != changes) {
                anomalies.add(new Anomaly(NAME, (seen < changes ? "missed " : "extra ") + Math.abs(changes - seen)
                        + " events on " + op.key() + " between versions " + op.in("from") + " and " + op.in("to"),
                        op.completeNs(), List.of(op.describe())));
            }
            if (op.out("outOfOrder") > 0) {
                anomalies.add(new Anomaly(NAME, op.out("outOfOrder") + " events out of zxid order on " + op.key(),
                        op.completeNs(), List.of(op.describe())));
            }
        }
        return CheckResult.of(NAME, windows + " closed windows, " + events + " events (" + withZxid
                + " carrying a zxid)", anomalies);
    }
}
