package dev.warden.state.pipeline;

import dev.warden.consensus.SnapshotData;
import dev.warden.consensus.SnapshotSource;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.TreeSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The state machine's snapshot body (sessions, then the tree, then the zxid the snapshot had
 * reached when it was finished), used for snapshot files on disk and for the bytes of a SNAP
 * sent to a follower. Snapshots are fuzzy: writes may continue while one is taken, so it holds
 * everything up to the zxid recorded when it started and maybe some later transactions, none
 * after the zxid recorded at its end; replaying the log after the start makes it exact once the
 * replay has passed the end. Recovery checks that the log reaches that far.
 */
public final class StateSnapshots {
    /** A session record is at least id, timeout and password length. */
    private static final int MIN_SESSION_BYTES = 8 + 4 + 4;
    /** A node record's fixed header in the snapshot format (stat, lengths, ACL index): 76 bytes. */
    static final int ESTIMATED_NODE_OVERHEAD_BYTES = 76;

    private StateSnapshots() {
    }

    public static void writeBody(StateMachine state, DataOutputStream out) throws IOException {
        List<SessionTracker.Session> sessions = state.sessions().sessions();
        out.writeInt(sessions.size());
        for (SessionTracker.Session session : sessions) {
            out.writeLong(session.id());
            out.writeInt(session.timeoutMs());
            byte[] password = session.password();
            out.writeInt(password.length);
            out.write(password);
        }
        TreeSnapshot.write(state.tree(), out);
        // Read after the walk: nothing applied later is in it.
        out.writeLong(Math.max(state.tree().lastAppliedZxid(), state.exactFromZxid()));
    }

    /**
     * Loads a body into a fresh state machine and returns the zxid the snapshot had reached when
     * it was finished: the state is exact once the log after {@code snapshotZxid} has been
     * replayed up to there (the state machine notes it too).
     */
    public static long readBody(StateMachine state, DataInputStream in, long snapshotZxid) throws IOException {
        return readBody(state, in, snapshotZxid, null);
    }

    /** As above, keeping {@code keptConfig} as /zookeeper/config (see {@link TreeSnapshot#read}). */
    static long readBody(StateMachine state, DataInputStream in, long snapshotZxid,
                         dev.warden.state.tree.DataNode keptConfig) throws IOException {
        int sessionCount = in.readInt();
        if (sessionCount < 0) {
            throw new IOException("snapshot body claims " + sessionCount + " sessions");
        }
        for (int i = 0; i < sessionCount; i++) {
            long id = in.readLong();
            int timeoutMs = in.readInt();
            int passwordBytes = in.readInt();
            if (passwordBytes < 0 || passwordBytes > in.available() + 1024) {
                throw new IOException("snapshot body has a session password of " + passwordBytes + " bytes");
            }
            byte[] password = new byte[passwordBytes];
            in.readFully(password);
            state.sessions().add(id, timeoutMs, password);
        }
        TreeSnapshot.read(state.tree(), in, snapshotZxid, keptConfig);
        long reachedZxid = in.readLong();
        if (reachedZxid < snapshotZxid) {
            throw new IOException("snapshot body says it was finished at zxid 0x" + Long.toHexString(reachedZxid)
                    + ", before it was started at 0x" + Long.toHexString(snapshotZxid));
        }
        state.loadedSnapshotReaching(reachedZxid);
        return reachedZxid;
    }

    /** The zxid a snapshot file's body says the snapshot had reached when it was finished (its last 8 bytes). */
    public static long reachedZxid(dev.warden.storage.Snapshot snapshot) throws IOException {
        return java.nio.ByteBuffer.wrap(snapshot.readBodyTail(Long.BYTES)).getLong();
    }

    /** Takes a (fuzzy) snapshot into memory, labelled with the last zxid applied when it began. */
    public static SnapshotData take(StateMachine state) {
        long zxid = state.tree().lastAppliedZxid();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * 1024);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeBody(state, out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing a snapshot to memory failed", e);
        }
        return new SnapshotData(zxid, bytes.toByteArray());
    }

    /** A {@link SnapshotSource} over a live state machine, for the leader's SNAPs. */
    public static SnapshotSource source(StateMachine state) {
        return source(() -> take(state), state);
    }

    /** A {@link SnapshotSource} that takes snapshots with {@code taker} and estimates them from {@code state}. */
    public static SnapshotSource source(Supplier<SnapshotData> taker, StateMachine state) {
        return new SnapshotSource() {
            @Override
            public SnapshotData take() {
                return taker.get();
            }

            @Override
            public long estimatedBytes() {
                return StateSnapshots.estimatedBytes(state);
            }
        };
    }

    /**
     * About the size of a snapshot of {@code state}: the tree's paths and data plus
     * {@link #ESTIMATED_NODE_OVERHEAD_BYTES} per node. Read without stopping the apply thread,
     * since it only steers a leader's choice between a diff and a snapshot.
     */
    static long estimatedBytes(StateMachine state) {
        return state.tree().approximateDataBytes() + (long) state.tree().nodeCount() * ESTIMATED_NODE_OVERHEAD_BYTES;
    }

    /**
     * Loads SNAP bytes into a fresh, empty state machine; returns the zxid the snapshot had
     * reached when it was finished, as {@link #readBody} does. Malformed bytes are an
     * {@link IOException}.
     */
    public static long load(SnapshotData snapshot, StateMachine fresh) throws IOException {
        if (fresh.tree().lastAppliedZxid() != 0 || fresh.sessions().size() != 0) {
            throw new IllegalArgumentException("a snapshot loads only into a fresh state machine");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot.bytes()))) {
            long reachedZxid = readBody(fresh, in, snapshot.zxid());
            if (in.available() > 0) {
                throw new IOException(in.available() + " unexpected bytes after the snapshot body");
            }
            return reachedZxid;
        } catch (EOFException truncated) {
            throw new IOException("snapshot bytes end early", truncated);
        } catch (RuntimeException malformed) {
            throw new IOException("malformed snapshot bytes: " + malformed, malformed);
        }
    }
}
