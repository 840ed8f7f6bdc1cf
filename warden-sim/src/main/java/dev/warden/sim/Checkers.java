package dev.warden.sim;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.Zxid;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Safety checks run as the simulation goes: one established leader per epoch; every member's
 * committed prefix is a prefix of one global history (agreement, total and primary order, no
 * committed entry lost); client histories are linearizable for writes and monotonic per session.
 * A violation throws {@link Violation} with a readable reason.
 */
public final class Checkers {
    public static final class Violation extends RuntimeException {
        public Violation(String message) {
            super(message);
        }
    }

    private final Map<Long, Long> leaderOfEpoch = new HashMap<>();
    private final List<long[]> history = new ArrayList<>();
    /** How far each applied history has been checked (a member's history is replaced when it rebuilds). */
    private final Map<AppliedHistory, Integer> verified = new IdentityHashMap<>();
    private final List<SimClient.Op> ackedWrites = new ArrayList<>();
    private final Map<Long, Long> valueOfVersion = new HashMap<>();

    /** Every configuration any member recorded committed, by version: all members must agree on each. */
    private final Map<Long, Configuration> configurationOfVersion = new HashMap<>();
    /** Per member, the newest committed configuration version it recorded. */
    private final Map<Long, Long> newestConfigurationOf = new HashMap<>();

    /**
     * Members agree on the history of configurations: one configuration per version, and no
     * member records an older one after a newer (a committed configuration is never undone).
     */
    void onConfigurationCommitted(long member, Configuration configuration) {
        Configuration known = configurationOfVersion.putIfAbsent(configuration.version(), configuration);
        if (known != null && !known.sameQuorumAs(configuration)) {
            throw new Violation("member " + member + " committed " + configuration + " where another committed "
                    + known);
        }
        Long newest = newestConfigurationOf.get(member);
        if (newest != null && configuration.version() < newest) {
            throw new Violation("member " + member + " went back to configuration " + Zxid.hex(configuration.version())
                    + " after " + Zxid.hex(newest));
        }
        newestConfigurationOf.put(member, configuration.version());
    }

    /** How many configurations were committed (versions seen). */
    int configurationsCommitted() {
        return configurationOfVersion.size();
    }

    /**
     * {@code quorum} is the rule of the configuration the member leads in: a member that may not
     * lead under it (an observer, a stranger, a voter of weight 0) never leads.
     */
    void onRoleChange(long member, RoleChange change, dev.warden.consensus.QuorumVerifier quorum) {
        // the rule itself, not QuorumVerifier.mayLead, which is the code under test
        if (change.role() == Role.LEADING && quorum != null && !(quorum.isVoter(member) && quorum.weight(member) > 0)) {
            throw new Violation("member " + member + " leads epoch " + change.epoch() + " but may not lead under its"
                    + " configuration (weight " + quorum.weight(member) + ")");
        }
        if (change.role() == Role.LEADING && change.serving()) {
            Long previous = leaderOfEpoch.putIfAbsent(change.epoch(), member);
            if (previous != null && previous != member) {
                throw new Violation("two leaders established in epoch " + change.epoch() + ": " + previous + " and "
                        + member);
            }
        }
    }

    /** Every member's committed prefix must agree with the global committed history. */
    void checkPrefixes(List<SimServer> members) {
        for (SimServer member : members) {
            if (!member.isUp()) {
                continue;
            }
            TreeMachine machine = member.machine();
            int committed = machine.countUpTo(member.peer().committedZxid());
            int from = verified.getOrDefault(machine.history(), 0);
            for (int i = from; i < committed; i++) {
                long zxid = machine.zxidAt(i);
                int hash = machine.hashAt(i);
                if (i < history.size()) {
                    long[] expected = history.get(i);
                    if (expected[0] != zxid || expected[1] != hash) {
                        throw new Violation("member " + member.id() + " committed " + Zxid.hex(zxid) + " at position "
                                + i + " where the history has " + Zxid.hex(expected[0])
                                + (expected[0] == zxid ? " with another payload" : ""));
                    }
                } else {
                    if (!history.isEmpty() && history.get(history.size() - 1)[0] >= zxid) {
                        throw new Violation("member " + member.id() + " committed " + Zxid.hex(zxid) + " out of order");
                    }
                    history.add(new long[]{zxid, hash});
                }
            }
            verified.put(machine.history(), Math.max(from, committed));
        }
        if (verified.size() > 64) {
            verified.keySet().removeIf(h -> members.stream().noneMatch(member -> member.machine().history() == h));
        }
    }

    /**
     * Members that applied the same history hold the same tree: equal last zxids (the prefixes are
     * checked to agree) must mean equal rolling digests of the DataTree.
     */
    void checkDigests(List<SimServer> members) {
        Map<Long, SimServer> byLastZxid = new HashMap<>();
        for (SimServer member : members) {
            if (!member.isUp()) {
                continue;
            }
            SimServer same = byLastZxid.putIfAbsent(member.machine().lastZxid(), member);
            if (same != null && same.machine().digest() != member.machine().digest()) {
                throw new Violation("members " + same.id() + " and " + member.id() + " applied up to "
                        + Zxid.hex(member.machine().lastZxid()) + " but their tree digests differ");
            }
        }
    }

    void onCompletedOp(SimClient.Op op) {
        if (op.kind() == SimClient.Kind.READ || !op.ok()) {
            return;
        }
        ackedWrites.add(op);
        if (op.kind() == SimClient.Kind.CAS) {
            Long previous = valueOfVersion.putIfAbsent(op.version(), op.value());
            if (previous != null) {
                throw new Violation("two acknowledged CAS writes produced version " + op.version());
            }
        }
    }

    void checkSessionRead(SimClient client, SimClient.Op read, long lastSeenVersion, long lastSeenZxid) {
        if (read.version() < lastSeenVersion || read.zxid() < lastSeenZxid) {
            throw new Violation("client " + client.id() + " read version " + read.version() + " at "
                    + Zxid.hex(read.zxid()) + " after seeing version " + lastSeenVersion + " at "
                    + Zxid.hex(lastSeenZxid));
        }
        Long written = valueOfVersion.get(read.version());
        if (written != null && written != read.value()) {
            throw new Violation("client " + client.id() + " read value " + read.value() + " for version "
                    + read.version() + " but the acknowledged write set " + written);
        }
    }

    /** A read after a sync sees every write acknowledged before the sync began. */
    void checkSyncRead(SimClient client, SimClient.Op read) {
        for (SimClient.Op write : ackedWrites) {
            if (write.kind() == SimClient.Kind.CAS && write.completeMs() < read.invokeMs()
                    && write.version() > read.version()) {
                throw new Violation("client " + client.id() + " synced at " + read.invokeMs() + " ms and read version "
                        + read.version() + ", but version " + write.version() + " was acknowledged at "
                        + write.completeMs() + " ms");
            }
        }
    }

    /** Acknowledged CAS writes form one chain of versions, and so do creates' sequence numbers, in real-time order. */
    void checkLinearizable() {
        checkChain(SimClient.Kind.CAS, SimClient.Op::version);
        checkChain(SimClient.Kind.CREATE, SimClient.Op::sequence);
    }

    private void checkChain(SimClient.Kind kind, ToLongFunction<SimClient.Op> position) {
        List<SimClient.Op> ops = new ArrayList<>(ackedWrites.stream().filter(o -> o.kind() == kind).toList());
        ops.sort(Comparator.comparingLong(position));
        long maxInvokeMs = Long.MIN_VALUE;
        long previous = Long.MIN_VALUE;
        for (SimClient.Op op : ops) {
            long at = position.applyAsLong(op);
            if (at == previous) {
                throw new Violation(kind + " position " + at + " acknowledged twice");
            }
            if (op.completeMs() < maxInvokeMs) {
                throw new Violation(kind + " at position " + at + " completed at " + op.completeMs()
                        + " ms, before an op with a lower position was even invoked (at " + maxInvokeMs + " ms)");
            }
            maxInvokeMs = Math.max(maxInvokeMs, op.invokeMs());
            previous = at;
        }
    }

    /** Every write a client saw succeed is in this member's applied history, with the same zxid. */
    void checkAckedWritesSurvive(SimServer member) {
        TreeMachine machine = member.machine();
        for (SimClient.Op op : ackedWrites) {
            int index = machine.countUpTo(op.zxid()) - 1;
            if (index < 0 || machine.zxidAt(index) != op.zxid()) {
                throw new Violation("acknowledged write " + Zxid.hex(op.zxid()) + " of client " + op.clientId()
                        + " is missing on member " + member.id());
            }
        }
    }

    public int historyLength() {
        return history.size();
    }

    public int ackedWriteCount() {
        return ackedWrites.size();
    }
}
