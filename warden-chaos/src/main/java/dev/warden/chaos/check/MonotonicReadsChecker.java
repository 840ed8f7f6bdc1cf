package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Monotonic reads per session: within one session, the versions a client sees of a key (reads
 * with or without sync, and the version its own acknowledged CAS produced) never go back, as
 * ZooKeeper promises a client across reconnects to other members. Ops carry input {@code session};
 * the order is the client's own (one op at a time), so invocation order is the session's order.
 */
public final class MonotonicReadsChecker implements Checker {
    public static final String NAME = "monotonic reads per session";

    private record SessionKey(long session, String key) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        Map<SessionKey, Op> lastSeen = new HashMap<>();
        List<Anomaly> anomalies = new ArrayList<>();
        long observations = 0;
        for (Op op : ops) {
            if (!op.ok() || !op.output().containsKey("version") || !op.input().containsKey("session")) {
                continue;
            }
            observations++;
            SessionKey sessionKey = new SessionKey(op.in("session"), op.key());
            Op before = lastSeen.get(sessionKey);
            if (before != null && op.out("version") < before.out("version")) {
                anomalies.add(new Anomaly(NAME, "session 0x" + Long.toHexString(op.in("session")) + " saw " + op.key()
                        + " go back from version " + before.out("version") + " to " + op.out("version"),
                        op.completeNs(), List.of(before.describe(), op.describe())));
            }
            if (before == null || op.out("version") >= before.out("version")) {
                lastSeen.put(sessionKey, op);
            }
        }
        return CheckResult.of(NAME, observations + " observations in " + lastSeen.size() + " session-key pairs",
                anomalies);
    }
}
