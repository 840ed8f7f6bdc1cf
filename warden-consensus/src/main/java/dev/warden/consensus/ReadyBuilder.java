package dev.warden.consensus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the effects of one batch. Messages to one peer must stay in the order they were
 * queued, so once a peer has a message waiting for the persist step, everything later to that
 * peer waits too.
 */
final class ReadyBuilder {
    private RoleChange roleChange;
    private final List<Outbound> sendImmediately = new ArrayList<>();
    private EpochState epochs;
    private long truncateAfterZxid = -1;
    private SnapshotData snapshot;
    private final List<Entry> entriesToPersist = new ArrayList<>();
    private final List<Outbound> sendAfterPersist = new ArrayList<>();
    private final Set<Long> peersWaitingForPersist = new HashSet<>();
    private final List<Entry> committed = new ArrayList<>();
    private final List<Received> received = new ArrayList<>();
    private final List<Long> syncsDone = new ArrayList<>();
    private boolean abandonHistory;
    private boolean resynced;
    private Configuration configurationCommitted;

    void roleChange(RoleChange change) {
        roleChange = change;
    }

    void send(long to, ZabMessage message) {
        if (peersWaitingForPersist.contains(to)) {
            sendAfterPersist.add(new Outbound(to, message));
        } else {
            sendImmediately.add(new Outbound(to, message));
        }
    }

    void sendAfterPersist(long to, ZabMessage message) {
        peersWaitingForPersist.add(to);
        sendAfterPersist.add(new Outbound(to, message));
    }

    void epochs(EpochState state) {
        epochs = state;
    }

    /** True if a truncation or snapshot can still go in this batch without reordering disk writes. */
    boolean canResetLog() {
        return entriesToPersist.isEmpty() && truncateAfterZxid < 0 && snapshot == null && !abandonHistory;
    }

    void truncate(long afterZxid) {
        Invariants.check(canResetLog(), "truncate after other log writes in one batch");
        truncateAfterZxid = afterZxid;
    }

    void snapshot(SnapshotData data) {
        Invariants.check(canResetLog(), "snapshot after other log writes in one batch");
        snapshot = data;
    }

    /**
     * The history is given up, and with it whatever this batch still meant to do with it: log
     * writes, the acknowledgements that would promise them (and what was queued behind those to
     * the same peers), commits and syncs. The driver empties the state before it would get to
     * them, so applying them would apply entries to a state that no longer holds their past.
     */
    void abandonHistory() {
        truncateAfterZxid = -1;
        snapshot = null;
        entriesToPersist.clear();
        sendAfterPersist.clear();
        peersWaitingForPersist.clear();
        committed.clear();
        syncsDone.clear();
        abandonHistory = true;
    }

    void resynced() {
        resynced = true;
    }

    void configurationCommitted(Configuration configuration) {
        configurationCommitted = configuration;
    }

    void persist(Entry entry) {
        entriesToPersist.add(entry);
    }

    void commit(Entry entry) {
        committed.add(entry);
    }

    void received(Received item) {
        received.add(item);
    }

    void syncDone(long token) {
        syncsDone.add(token);
    }

    boolean isEmpty() {
        return roleChange == null && sendImmediately.isEmpty() && epochs == null && truncateAfterZxid < 0
                && snapshot == null && entriesToPersist.isEmpty() && sendAfterPersist.isEmpty() && committed.isEmpty()
                && received.isEmpty() && syncsDone.isEmpty() && !abandonHistory && !resynced
                && configurationCommitted == null;
    }

    Ready build() {
        return new Ready(roleChange, List.copyOf(sendImmediately), epochs, truncateAfterZxid, snapshot,
                List.copyOf(entriesToPersist), List.copyOf(sendAfterPersist), List.copyOf(committed),
                List.copyOf(received), List.copyOf(syncsDone), abandonHistory, resynced, configurationCommitted);
    }
}
