package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sequential ids, on the set workload's sequential children: each sequence number names one
 * child (unique), the numbers follow the zxids that created them (a higher number, a later
 * create), and what an acknowledgement said (number, czxid) is what the end shows for that value.
 * Sources: acknowledged {@code add}s (output seq, czxid) and the {@code final} read (value, seq, czxid).
 */
public final class SequenceChecker implements Checker {
    public static final String NAME = "sequential ids (unique, in zxid order)";

    private record Claim(long value, long seq, long czxid, Op op) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(List<Op> ops) {
        List<Claim> claims = new ArrayList<>();
        for (Op op : ops) {
            if ((op.f().equals("add") && op.ok()) || op.f().equals("final")) {
                long value = op.f().equals("add") ? op.in("value") : op.out("value");
                claims.add(new Claim(value, op.out("seq"), op.out("czxid"), op));
            }
        }
        List<Anomaly> anomalies = new ArrayList<>();
        Map<Long, Claim> bySeq = new TreeMap<>();
        Map<Long, Claim> byValue = new HashMap<>();
        for (Claim claim : claims) {
            Claim sameSeq = bySeq.putIfAbsent(claim.seq(), claim);
            if (sameSeq != null && sameSeq.value() != claim.value()) {
                anomalies.add(new Anomaly(NAME, "sequence number " + claim.seq() + " given to two values",
                        claim.op().completeNs(), List.of(sameSeq.op().describe(), claim.op().describe())));
            }
            Claim sameValue = byValue.putIfAbsent(claim.value(), claim);
            if (sameValue != null && (sameValue.seq() != claim.seq() || sameValue.czxid() != claim.czxid())) {
                anomalies.add(new Anomaly(NAME, "value " + claim.value() + " acknowledged as seq " + sameValue.seq()
                        + " czxid 0x" + Long.toHexString(sameValue.czxid()) + " but found as seq " + claim.seq()
                        + " czxid 0x" + Long.toHexString(claim.czxid()), claim.op().completeNs(),
                        List.of(sameValue.op().describe(), claim.op().describe())));
            }
        }
        Claim previous = null;
        for (Claim claim : bySeq.values()) {
            if (previous != null && previous.czxid() >= claim.czxid()) {
                anomalies.add(new Anomaly(NAME, "seq " + previous.seq() + " < " + claim.seq() + " but czxid 0x"
                        + Long.toHexString(previous.czxid()) + " >= 0x" + Long.toHexString(claim.czxid()),
                        claim.op().completeNs(), List.of(previous.op().describe(), claim.op().describe())));
            }
            previous = claim;
        }
        return CheckResult.of(NAME, bySeq.size() + " sequence numbers seen (" + claims.size() + " claims)",
                anomalies);
    }
}
