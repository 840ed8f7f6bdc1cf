package dev.warden.state.pipeline;

import dev.warden.state.common.Clock;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.SnapshotBytes;
import dev.warden.storage.TxnLog;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * The restore transaction: a whole snapshot file replaces the tree and the session table.
 * {@link #verify} checks an uploaded file completely (framing, checksum, a full load, exactness)
 * before anything changes; {@link #apply} replaces the state in one step under the tree's write
 * lock, so no read sees it half done. Recovery replays a logged restore through the same code.
 */
public final class SnapshotRestore {
    /** The session tick of the throwaway state a verification loads into; its sessions never expire there. */
    private static final int VERIFY_TICK_MS = 1000;

    private SnapshotRestore() {
    }

    /** What a verified snapshot holds. */
    public record Verified(long snapshotZxid, int nodeCount, int sessionCount, long replicatedDigest) {
    }

    /** An uploaded snapshot that cannot be restored; the message says why. */
    public static final class RefusedSnapshot extends Exception {
        public RefusedSnapshot(String message) {
            super(message);
        }
    }

    /**
     * The largest snapshot file a restore takes: its transaction must fit in one log record
     * ({@link TxnLog#maxPayloadBytes()}) with the transaction's header around it.
     */
    public static int maxSnapshotBytes() {
        int overheadBytes = new Txn(0, 0, 0, 0, new TxnBody.Restore(new byte[0])).encode().length;
        return TxnLog.maxPayloadBytes() - overheadBytes;
    }

    /**
     * Checks {@code file} as recovery checks a snapshot (magic, format version, length, CRC32C),
     * then loads it into a throwaway state: it must parse to its end and be exact, that is
     * finished at the zxid it was started at (what the snapshot admin command writes). A fuzzy
     * snapshot needs its log and is refused.
     */
    public static Verified verify(byte[] file) throws RefusedSnapshot {
        if (file.length > maxSnapshotBytes()) {
            throw new RefusedSnapshot("the snapshot holds " + file.length + " bytes, above the " + maxSnapshotBytes()
                    + " one restore transaction can log");
        }
        Optional<String> problem = SnapshotBytes.problem(file);
        if (problem.isPresent()) {
            throw new RefusedSnapshot("not a valid Warden snapshot file: " + problem.get());
        }
        long snapshotZxid = SnapshotBytes.zxid(file);
        StateMachine scratch = new StateMachine(new DataTree(), new SessionTracker(Clock.SYSTEM, VERIFY_TICK_MS, 0));
        long reachedZxid;
        try {
            reachedZxid = load(scratch, file, snapshotZxid, null);
        } catch (IOException malformed) {
            throw new RefusedSnapshot("the snapshot's body is malformed: " + malformed.getMessage());
        }
        if (reachedZxid != snapshotZxid) {
            throw new RefusedSnapshot("the snapshot is fuzzy (started at zxid 0x" + Long.toHexString(snapshotZxid)
                    + ", finished at 0x" + Long.toHexString(reachedZxid) + "): it is exact only with its log;"
                    + " take one with the snapshot admin command, or restore it offline with `warden restore"
                    + " SNAPSHOT --data-dir NEW --log LOG` (docs/TOOLS.md)");
        }
        DataTree tree = scratch.tree();
        return new Verified(snapshotZxid, tree.nodeCount(), scratch.sessions().size(), tree.replicatedDigest());
    }

    /**
     * Applies a restore: the state becomes exactly the snapshot's (nodes with the zxids the
     * snapshot gives them, its sessions as they are, their timeouts counting from now), labelled
     * with the transaction's zxid. /zookeeper/config stays the member's own node (data and Stat):
     * a restore brings back data, never another ensemble's membership or configuration version,
     * which a member reads from that node when it starts. Watches are not fired: the
     * server drops every watch and connection after a restore (warden-server's
     * {@code PipelineListener.stateRestored}).
     *
     * @return what {@link DataTree#apply} returns for a transaction that leaves no node
     */
    static List<dev.warden.protocol.Stat> apply(StateMachine state, Txn txn) {
        byte[] file = ((TxnBody.Restore) txn.body()).snapshotFile();
        // The bytes were verified before the transaction was prepared and the log checksums
        // them, but the state is emptied below: check again so damage cannot empty it for nothing.
        Optional<String> problem = SnapshotBytes.problem(file);
        if (problem.isPresent()) {
            throw new IllegalStateException("restore transaction 0x" + Long.toHexString(txn.zxid())
                    + " holds a damaged snapshot: " + problem.get());
        }
        DataTree tree = state.tree();
        Lock writeLock = tree.writeLock();
        writeLock.lock();
        try {
            DataNode memberConfig = tree.node(DataTree.CONFIG);
            tree.clear();
            state.sessions().clear();
            load(state, file, SnapshotBytes.zxid(file), memberConfig);
            // Changes nothing more in the tree; labels the state with the restore's zxid.
            return tree.apply(txn);
        } catch (IOException e) {
            throw new IllegalStateException("restore transaction 0x" + Long.toHexString(txn.zxid())
                    + " could not load its verified snapshot: " + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Loads the file's body; {@code keptConfig}, if given, stays /zookeeper/config. */
    private static long load(StateMachine state, byte[] file, long snapshotZxid, DataNode keptConfig)
            throws IOException {
        try (DataInputStream in = SnapshotBytes.openBody(file)) {
            long reachedZxid = StateSnapshots.readBody(state, in, snapshotZxid, keptConfig);
            if (in.read() >= 0) {
                throw new IOException("unexpected bytes after the snapshot body");
            }
            return reachedZxid;
        } catch (EOFException truncated) {
            throw new IOException("the body ends early", truncated);
        } catch (RuntimeException malformed) {
            throw new IOException(malformed.toString(), malformed);
        }
    }
}
