package dev.warden.server.recovery;

import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.storage.LogIterator;
import dev.warden.storage.LogRecord;
import dev.warden.storage.LogScan;
import dev.warden.storage.Snapshot;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds a server's state from its data directory, and only a state the directory proves
 * ({@link RecoveryPlan} has the rule). At start-up it scans the log and verifies every snapshot,
 * lets the plan choose, moves aside what recovery does not use (never deleting anything), opens
 * the log and replays it after the chosen snapshot. What happens when nothing can be proven is
 * the caller's choice: a standalone server refuses to start, or, when its operator asked for it,
 * recovers to the last provable state; an ensemble member sets its whole history aside and
 * starts empty, marked to take a copy from a leader.
 */
public final class DataDirRecovery {
    private static final Logger log = LoggerFactory.getLogger(DataDirRecovery.class);

    /** What to do with a data directory that proves no state. */
    public enum OnUnprovable {
        /** Stop with an {@link UnprovableStateException} (a standalone server). */
        REFUSE,
        /** Recover to the last provable state and set aside everything after it (--discard-unprovable). */
        DISCARD_UNPROVABLE,
        /** Set the whole history aside, write the {@link ResyncMarker} and start empty (an ensemble member). */
        RESYNC
    }

    /**
     * The open log and how the state was rebuilt.
     *
     * @param snapshotZxid   the zxid of the snapshot recovery started from (0: the empty tree)
     * @param replayed       log records applied after it
     * @param snapshotLoadMs how long loading the snapshot took (0 without one)
     * @param replayMs       how long replaying the log after it took
     * @param historySetAside true when an ensemble member set its history aside and starts empty
     */
    public record Outcome(TxnLog log, long snapshotZxid, long replayed, boolean historySetAside, long snapshotLoadMs,
                          long replayMs) {
        public Outcome(TxnLog log, long snapshotZxid, long replayed, boolean historySetAside) {
            this(log, snapshotZxid, replayed, historySetAside, 0, 0);
        }
    }

    /** What loading the state took: the log records replayed, and the two phases' times. */
    private record Loaded(long replayed, long snapshotLoadMs, long replayMs) {
    }

    private DataDirRecovery() {
    }

    /** Start-up recovery into {@code state}, which must be empty. */
    public static Outcome recover(DataLayout layout, TxnLogOptions logOptions, StateMachine state,
                                  OnUnprovable onUnprovable, long wallTimeMs) throws IOException {
        SnapshotStore store = new SnapshotStore(layout.snapshotsDir(), logOptions.channels());
        if (onUnprovable == OnUnprovable.RESYNC && ResyncMarker.exists(layout.dataDir())) {
            log.warn("{} is present ({}): this member has not finished taking a copy of a leader's history, so"
                    + " it starts over empty and vouches for no history until it has",
                    ResyncMarker.path(layout.dataDir()), ResyncMarker.reason(layout.dataDir()).orElse(""));
            return startOver(layout, logOptions, wallTimeMs);
        }
        LogScan scan = LogScan.of(layout.logDir(), logOptions);
        List<SnapshotStore.SnapshotFile> snapshotFiles = store.verifyAll();
        Map<String, SnapshotStore.SnapshotFile> snapshotsByName = new HashMap<>();
        List<RecoveryPlan.SnapshotFacts> snapshotFacts = new ArrayList<>();
        for (SnapshotStore.SnapshotFile file : snapshotFiles) {
            RecoveryPlan.SnapshotFacts facts = facts(file);
            snapshotsByName.put(facts.name(), file);
            snapshotFacts.add(facts);
        }
        Map<String, LogScan.SegmentReport> segmentsByName = new HashMap<>();
        List<RecoveryPlan.SegmentFacts> segmentFacts = new ArrayList<>();
        for (LogScan.SegmentReport report : scan.segments()) {
            RecoveryPlan.SegmentFacts facts = new RecoveryPlan.SegmentFacts(report.previousZxid(),
                    report.firstZxid(), report.lastZxid(), report.file().toString(),
                    report.isSound() ? null : "at byte offset " + report.damage().offsetBytes() + ", "
                            + report.damage().reason());
            segmentsByName.put(facts.name(), report);
            segmentFacts.add(facts);
        }
        RecoveryPlan.Decision decision = RecoveryPlan.decide(snapshotFacts, segmentFacts, scan.startZxid(),
                zxid -> holds(scan, zxid));
        Disk notUsed = new Disk(layout, scan, store, snapshotsByName, segmentsByName, wallTimeMs);
        if (decision instanceof RecoveryPlan.Recover plan) {
            return execute(notUsed, plan, state);
        }
        RecoveryPlan.Unprovable unprovable = (RecoveryPlan.Unprovable) decision;
        switch (onUnprovable) {
            case REFUSE -> throw new UnprovableStateException(layout, unprovable.problems(),
                    unprovable.lastProvable());
            case DISCARD_UNPROVABLE -> {
                log.warn("The data in {} does not prove the state it would serve ({}); as asked, recovering to the"
                        + " last provable state, {}, and setting aside everything after it",
                        layout.dataDir(), String.join("; ", unprovable.problems()),
                        unprovable.lastProvable().describe());
                return execute(notUsed, unprovable.lastProvable(), state);
            }
            case RESYNC -> {
                String reason = "the local history was not provable: " + String.join("; ", unprovable.problems());
                log.warn("This member's {}; it sets its history aside, starts empty and vouches for no history"
                        + " until it has taken a copy of a leader's", reason);
                ResyncMarker.write(layout.dataDir(), reason);
                return startOver(layout, logOptions, wallTimeMs);
            }
            default -> throw new IllegalStateException("unknown policy " + onUnprovable);
        }
    }

    /**
     * Rebuilds {@code state} (empty) from the newest snapshot the open, unbroken log reaches back
     * to and the log after it, up to the log's end: a TRUNC on a running member. Nothing is moved.
     */
    public static long rebuild(StateMachine state, SnapshotStore store, TxnLog txnLog) throws IOException {
        List<RecoveryPlan.SnapshotFacts> snapshotFacts = new ArrayList<>();
        Map<String, SnapshotStore.SnapshotFile> byName = new HashMap<>();
        for (SnapshotStore.SnapshotFile file : store.verifyAll()) {
            RecoveryPlan.SnapshotFacts facts = facts(file);
            byName.put(facts.name(), file);
            snapshotFacts.add(facts);
        }
        List<RecoveryPlan.SegmentFacts> segmentFacts = new ArrayList<>();
        for (TxnLog.SegmentRange range : txnLog.segmentRanges()) {
            segmentFacts.add(new RecoveryPlan.SegmentFacts(range.previousZxid(), range.firstZxid(), range.lastZxid(),
                    "segment 0x" + Long.toHexString(range.firstZxid()), null));
        }
        RecoveryPlan.Decision decision = RecoveryPlan.decide(snapshotFacts, segmentFacts, txnLog.startZxid(), zxid -> {
            try {
                return txnLog.holdsRecord(zxid);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        if (!(decision instanceof RecoveryPlan.Recover plan)) {
            throw new IOException("the state cannot be rebuilt from the snapshots and the log: "
                    + String.join("; ", ((RecoveryPlan.Unprovable) decision).problems()));
        }
        Snapshot snapshot = plan.snapshot() == null ? null : byName.get(plan.snapshot().name()).snapshot();
        return load(state, snapshot, txnLog, plan.logEndZxid()).replayed();
    }

    /** The snapshots and segments the plan may move aside, and where they go. */
    private record Disk(DataLayout layout, LogScan scan, SnapshotStore store,
                         Map<String, SnapshotStore.SnapshotFile> snapshots, Map<String, LogScan.SegmentReport> segments,
                         long wallTimeMs) {
    }

    private static Outcome execute(Disk files, RecoveryPlan.Recover plan, StateMachine state) throws IOException {
        LogScan scan = files.scan();
        if (!plan.setAsideSegments().isEmpty()) {
            Path into = DataLayout.setAsideDirFor(files.layout().logDir(), files.wallTimeMs());
            List<LogScan.SegmentReport> moved = new ArrayList<>();
            for (RecoveryPlan.SegmentFacts facts : plan.setAsideSegments()) {
                moved.add(files.segments().get(facts.name()));
                log.warn("Setting aside log segment {} (recovery from {} does not use it): moved into {}",
                        facts.name() + (facts.isSound() ? "" : ", damaged " + facts.damage()), plan.describe(), into);
            }
            scan = scan.moveAside(moved, into);
        }
        if (!plan.setAsideSnapshots().isEmpty()) {
            Path into = DataLayout.setAsideDirFor(files.layout().snapshotsDir(), files.wallTimeMs());
            List<Path> moved = new ArrayList<>();
            for (RecoveryPlan.SnapshotFacts facts : plan.setAsideSnapshots()) {
                moved.add(files.snapshots().get(facts.name()).file());
                log.warn("Setting aside snapshot {} ({}): moved into {}", facts.name(),
                        facts.isValid() ? "beyond the state recovered to" : "invalid: " + facts.problem(), into);
            }
            files.store().moveAside(moved, into);
        }
        TxnLog txnLog = TxnLog.open(scan);
        try {
            Snapshot snapshot = plan.snapshot() == null ? null
                    : files.snapshots().get(plan.snapshot().name()).snapshot();
            Loaded loaded = load(state, snapshot, txnLog, plan.logEndZxid());
            return new Outcome(txnLog, plan.fromZxid(), loaded.replayed(), false, loaded.snapshotLoadMs(),
                    loaded.replayMs());
        } catch (IOException | RuntimeException e) {
            txnLog.close();
            throw e;
        }
    }

    /** Loads the snapshot (if any) into the empty state and replays the log after it to its end. */
    private static Loaded load(StateMachine state, Snapshot snapshot, TxnLog txnLog, long logEndZxid)
            throws IOException {
        long fromZxid = 0;
        long startNs = System.nanoTime();
        if (snapshot != null) {
            fromZxid = snapshot.zxid();
            try (DataInputStream in = snapshot.openBody()) {
                StateSnapshots.readBody(state, in, fromZxid);
            }
            log.info("loaded snapshot {} (zxid 0x{}, {} nodes)", snapshot.file(), Long.toHexString(fromZxid),
                    state.tree().nodeCount());
        }
        long snapshotLoadedNs = System.nanoTime();
        long replayed = 0;
        try (LogIterator records = txnLog.readAfter(fromZxid)) {
            while (records.hasNext()) {
                LogRecord record = records.next();
                state.apply(Txn.decode(record.payload()));
                replayed++;
            }
        }
        DataTree tree = state.tree();
        long expectedZxid = Math.max(fromZxid, logEndZxid);
        if (tree.lastAppliedZxid() != expectedZxid) {
            throw new IOException("replaying the log after 0x" + Long.toHexString(fromZxid) + " reached 0x"
                    + Long.toHexString(tree.lastAppliedZxid()) + ", not the log's end 0x"
                    + Long.toHexString(expectedZxid));
        }
        log.info("recovered to zxid 0x{}: {} nodes, {} sessions, {} transactions replayed after {}",
                Long.toHexString(tree.lastAppliedZxid()), tree.nodeCount(), state.sessions().size(), replayed,
                snapshot == null ? "the empty tree" : "the snapshot");
        return new Loaded(replayed, (snapshotLoadedNs - startNs) / 1_000_000,
                (System.nanoTime() - snapshotLoadedNs) / 1_000_000);
    }

    /** Sets the whole history aside (the marker is already durable) and opens an empty log. */
    private static Outcome startOver(DataLayout layout, TxnLogOptions logOptions, long wallTimeMs) throws IOException {
        for (Path dir : List.of(layout.logDir(), layout.snapshotsDir())) {
            if (!DataLayout.isEmpty(dir)) {
                Path into = DataLayout.setAsideDirFor(dir, wallTimeMs);
                java.nio.file.Files.move(dir, into, StandardCopyOption.ATOMIC_MOVE);
                log.warn("Set aside {} as {}", dir, into);
            }
        }
        new SnapshotStore(layout.snapshotsDir(), logOptions.channels());
        return new Outcome(TxnLog.open(layout.logDir(), logOptions), 0, 0, true);
    }

    private static RecoveryPlan.SnapshotFacts facts(SnapshotStore.SnapshotFile file) throws IOException {
        String problem = file.problem().orElse(null);
        long reached = file.zxid();
        if (problem == null) {
            reached = StateSnapshots.reachedZxid(file.snapshot());
            if (reached < file.zxid()) {
                problem = "its body says it was finished at 0x" + Long.toHexString(reached) + ", before it started";
                reached = file.zxid();
            }
        }
        return new RecoveryPlan.SnapshotFacts(file.zxid(), reached, file.file().toString(), problem);
    }

    private static boolean holds(LogScan scan, long zxid) {
        try {
            return scan.holdsRecord(zxid);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
