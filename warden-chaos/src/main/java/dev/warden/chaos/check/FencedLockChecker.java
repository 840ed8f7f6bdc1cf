package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lock with fencing tokens: a client that holds the lock (its ephemeral sequential node is the
 * lowest) uses the node's czxid as its token and writes the guarded node only through a CAS that
 * carries the token ({@code fenced-write}, input token; OK output version, the guarded node's new
 * version). In the order of the guarded node's versions, tokens never go back (a stale holder's
 * write never lands after a newer holder's), one token belongs to one client, and one version is
 * written once.
 */
public final class FencedLockChecker implements Checker {
    public static final String NAME = "lock with fencing tokens";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        TreeMap<Long, Op> byVersion = new TreeMap<>();
        Map<Long, Op> holderOfToken = new HashMap<>();
        List<Anomaly> anomalies = new ArrayList<>();
        long acquisitions = ops.stream().filter(op -> op.f().equals("acquire") && op.ok()).count();
        for (Op op : ops) {
            if (!op.f().equals("fenced-write") || !op.ok()) {
                continue;
            }
            Op sameVersion = byVersion.put(op.out("version"), op);
            if (sameVersion != null) {
                anomalies.add(new Anomaly(NAME, "guarded node version " + op.out("version") + " written twice",
                        op.completeNs(), List.of(sameVersion.describe(), op.describe())));
            }
            Op holder = holderOfToken.putIfAbsent(op.in("token"), op);
            if (holder != null && holder.client() != op.client()) {
                anomalies.add(new Anomaly(NAME, "token 0x" + Long.toHexString(op.in("token")) + " used by two clients",
                        op.completeNs(), List.of(holder.describe(), op.describe())));
            }
        }
        Op previous = null;
        for (Op op : byVersion.values()) {
            if (previous != null && op.in("token") < previous.in("token")) {
                anomalies.add(new Anomaly(NAME, "stale holder wrote after a newer one: token 0x"
                        + Long.toHexString(op.in("token")) + " after 0x" + Long.toHexString(previous.in("token")),
                        op.completeNs(), List.of(previous.describe(), op.describe())));
            }
            previous = op;
        }
        return CheckResult.of(NAME, acquisitions + " acquisitions, " + byVersion.size() + " fenced writes by "
                + holderOfToken.size() + " tokens", anomalies);
    }
}
