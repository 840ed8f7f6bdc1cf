package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sequential ids, on the set workload's sequential children: under each parent (the op's key) each
 * sequence number names one child (unique), the numbers follow the zxids that created them (a
 * higher number, a later create), and what an acknowledgement said (number, czxid) is what the end
 * shows for that value. Sources: acknowledged {@code add}s (output seq, czxid) and the {@code final}
 * read (value, seq, czxid).
 */
public final class SequenceChecker implements Checker {
    public static final String NAME = "sequential ids (unique, in zxid order)";

    private record Claim(String parent, long value, long seq, long czxid, Op op) {
    }

    /** An add's key is its parent; a final read's key is the child's own path. */
    private static String parentOf(Op op) {
        return op.f().equals("add") ? op.key() : op.key().substring(0, op.key().lastIndexOf('/'));
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
                claims.add(new Claim(parentOf(op), value, op.out("seq"), op.out("czxid"), op));
            }
        }
        List<Anomaly> anomalies = new ArrayList<>();
        Map<String, TreeMap<Long, Claim>> bySeq = new TreeMap<>();
        Map<Long, Claim> byValue = new HashMap<>();
        for (Claim claim : claims) {
            Claim sameSeq = bySeq.computeIfAbsent(claim.parent(), p -> new TreeMap<>()).putIfAbsent(claim.seq(), claim);
            if (sameSeq != null && sameSeq.value() != claim.value()) {
                anomalies.add(new Anomaly(NAME, "sequence number " + claim.seq() + " given to two values",
                        claim.op().completeNs(), List.of(sameSeq.op().describe(), claim.op().describe())));
            }
            Claim sameValue = byValue.putIfAbsent(claim.value(), claim);
            if (sameValue != null && (sameValue.seq() != claim.seq() || sameValue.czxid() != claim.czxid()
                    || !sameValue.parent().equals(claim.parent()))) {
                anomalies.add(new Anomaly(NAME, "value " + claim.value() + " acknowledged as seq " + sameValue.seq()
                        + " czxid 0x" + Long.toHexString(sameValue.czxid()) + " but found as seq " + claim.seq()
                        + " czxid 0x" + Long.toHexString(claim.czxid()), claim.op().completeNs(),
                        List.of(sameValue.op().describe(), claim.op().describe())));
            }
        }
        int numbers = 0;
        for (TreeMap<Long, Claim> parent : bySeq.values()) {
            numbers += parent.size();
            Claim previous = null;
            for (Claim claim : parent.values()) {
                if (previous != null && previous.czxid() >= claim.czxid()) {
                    anomalies.add(new Anomaly(NAME, claim.parent() + ": seq " + previous.seq() + " < " + claim.seq()
                            + " but czxid 0x" + Long.toHexString(previous.czxid()) + " >= 0x"
                            + Long.toHexString(claim.czxid()), claim.op().completeNs(),
                            List.of(previous.op().describe(), claim.op().describe())));
                }
                previous = claim;
            }
        }
        return CheckResult.of(NAME, numbers + " sequence numbers seen under " + bySeq.size() + " parents ("
                + claims.size() + " claims)", anomalies);
    }
}
