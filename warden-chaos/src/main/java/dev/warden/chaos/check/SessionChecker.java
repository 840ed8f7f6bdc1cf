package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * Sessions: a client holding an ephemeral node is cut off from every member (its connection
 * silently drops everything) while the ensemble is otherwise whole; another client watches for the
 * node to go ({@code expiry}: invoked at the cut, OK when the node was seen gone, UNKNOWN if it
 * never went). The node must be gone within the session timeout plus the slack ZooKeeper's
 * expiry allows: the owner's last ping up to a third of the timeout before the cut, the expiry
 * tick's rounding, and the time to commit the close ({@code allowedMs}, input).
 */
public final class SessionChecker implements Checker {
    public static final String NAME = "sessions (ephemerals gone in time)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        List<Anomaly> anomalies = new ArrayList<>();
        List<Long> goneMs = new ArrayList<>();
        for (Op op : ops) {
            if (!op.f().equals("expiry")) {
                continue;
            }
            long allowedMs = op.in("allowedMs");
            if (op.outcome() == Outcome.OK) {
                long tookMs = op.out("goneAfterMs");
                goneMs.add(tookMs);
                if (tookMs > allowedMs) {
                    anomalies.add(new Anomaly(NAME, "ephemeral " + op.key() + " outlived its cut-off owner by "
                            + tookMs + " ms (allowed " + allowedMs + ")", op.completeNs(), List.of(op.describe())));
                }
            } else {
                anomalies.add(new Anomaly(NAME, "ephemeral " + op.key() + " never went after its owner was cut off ("
                        + op.error() + ")", op.completeNs(), List.of(op.describe())));
            }
        }
        return CheckResult.of(NAME, goneMs.size() + " cut-off sessions, gone after " + goneMs + " ms", anomalies);
    }
}
