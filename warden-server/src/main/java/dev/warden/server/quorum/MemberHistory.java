package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.SnapshotData;
import dev.warden.server.log.TxnLogView;
import dev.warden.state.pipeline.StateMachine;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A member's history on disk and the state rebuilt from it: entries persisted, truncations, snapshots from the leader, history given up and regained. */
final class MemberHistory {
    /** The member's logger: these lines are the member's. */
    private static final Logger log = LoggerFactory.getLogger(Member.class);

    private final long myId;
    /** False for an observer with syncEnabled=false: its history stays in memory. */
    private final boolean historyOnDisk;
    private final TxnLogView memberLog;
    private final Member.Storage storage;
    private final StateMachine stateMachine;
    private final MemberApplier applier;
    private final ReadOnlyMode readOnly;
    /** The run-time tree check with the other members; null with digest.enabled=false. */
    private final TreeCheck treeCheck;
    /** Has the core give up this member's history, for the reason given (driver thread). */
    private final Consumer<String> abandonBecause;
    /** Why the core was asked to abandon its history, for the resync marker (driver thread). */
    private String abandonReason;

    MemberHistory(long myId, boolean historyOnDisk, TxnLogView memberLog, Member.Storage storage,
                  StateMachine stateMachine, MemberApplier applier, ReadOnlyMode readOnly, TreeCheck treeCheck,
                  Consumer<String> abandonBecause) {
        this.myId = myId;
        this.historyOnDisk = historyOnDisk;
        this.memberLog = memberLog;
        this.storage = storage;
        this.stateMachine = stateMachine;
        this.applier = applier;
        this.readOnly = readOnly;
        this.treeCheck = treeCheck;
        this.abandonBecause = abandonBecause;
    }

    /** Driver thread: the next {@link #abandon} gives up the history for {@code reason}. */
    void abandonNext(String reason) {
        abandonReason = reason;
    }

    void truncateAfter(long zxid) throws IOException {
        if (!historyOnDisk) {
            // The state cannot be rebuilt from a disk that holds no history: take the leader's
            // snapshot instead. Until it arrives the state is a committed prefix (an observer
            // applies only what the leader committed), so reads stay merely behind.
            abandonBecause.accept("a TRUNC to 0x" + Long.toHexString(zxid) + " reached an observer that keeps"
                    + " no history on disk (syncEnabled=false)");
            return;
        }
        memberLog.truncateAfter(zxid);
        // The core counts everything up to zxid as applied after a TRUNC, so the state must end
        // exactly there. It can be behind as well as ahead: a former leader logged its last
        // proposals but never saw them committed, and the new leader kept them.
        rebuild(zxid, () -> storage.rebuildState(stateMachine));
    }

    void abandon() throws IOException {
        String reason = abandonReason != null ? abandonReason : "its state could not be vouched for";
        abandonReason = null;
        log.warn("member {} gives up its history ({}): it sets its log and snapshots aside, takes a copy of the"
                + " leader's, and vouches for no history until it has", myId, reason);
        // the marker first: a crash after it leaves a member that knows it must resynchronize
        storage.abandonHistory(reason);
        rebuild(-1, () -> { });
    }

    void resynced() throws IOException {
        storage.resynced();
        log.info("member {} holds the leader's history again and counts toward quorums", myId);
    }

    void installSnapshot(SnapshotData snapshot) throws IOException {
        rebuild(-1, () -> storage.loadSnapshot(stateMachine, snapshot));
        if (historyOnDisk) {
            storage.restartAfterSnapshot(snapshot.zxid(), stateMachine);
        } else {
            memberLog.restartAfter(snapshot.zxid()); // no snapshot file: the log view starts after it
        }
    }

    private interface StateWork {
        void run() throws IOException;
    }

    /**
     * Clears and rebuilds the state on the apply thread, after every commit handed to it before,
     * unless the state has applied exactly {@code unlessAtZxid} by then.
     */
    private void rebuild(long unlessAtZxid, StateWork work) throws IOException {
        // before the apply thread touches the tree: no read-only read sees it half rebuilt
        readOnly.treeRebuilt();
        IOException[] failure = new IOException[1];
        applier.runAndWait(() -> {
            if (stateMachine.tree().lastAppliedZxid() == unlessAtZxid) {
                return;
            }
            stateMachine.clear();
            if (treeCheck != null) {
                treeCheck.reset();
            }
            try {
                work.run();
                if (treeCheck != null) {
                    treeCheck.noteState();
                }
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    void persist(List<Entry> entries) throws IOException {
        if (historyOnDisk) {
            memberLog.appendDurably(entries);
        }
        // else: published to the core (logged) from memory only; an observer acknowledges nothing
    }
}
