package dev.warden.cli.damage;

import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.Snapshot;
import dev.warden.storage.SnapshotStore;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What goes wrong with a server's files at rest, done to a stopped server's data directory. */
public final class DataDamage {
    private DataDamage() {
    }

    public static List<Path> snapshots(Path dataDir) throws IOException {
        return files(dataDir.resolve("snapshots"), "snapshot.");
    }

    public static List<Path> logSegments(Path dataDir) throws IOException {
        return files(dataDir.resolve("log"), "log.");
    }

    /** Bit rot: 64 bytes in the middle of every snapshot overwritten. */
    public static void overwrite64BytesOfEverySnapshot(Path dataDir) throws IOException {
        for (Path snapshot : snapshots(dataDir)) {
            byte[] bytes = Files.readAllBytes(snapshot);
            for (int i = 0; i < 64; i++) {
                bytes[bytes.length / 2 + i] = (byte) 0xA5;
            }
            Files.write(snapshot, bytes);
        }
    }

    /** The oldest log segment removed, as a purge that went too far would. */
    public static Path deleteOldestLogSegment(Path dataDir) throws IOException {
        Path oldest = logSegments(dataDir).get(0);
        Files.delete(oldest);
        return oldest;
    }

    /**
     * The newest snapshot rewritten with one node's data changed and a valid checksum, as a
     * memory error before the write would leave it: every check of the file passes.
     */
    public static void rewriteNodeInNewestSnapshot(Path dataDir, String path, String data) throws IOException {
        SnapshotStore store = new SnapshotStore(dataDir.resolve("snapshots"));
        Snapshot newest = store.newestValid().orElseThrow();
        StateMachine state = new StateMachine(new DataTree(), new SessionTracker(Clock.SYSTEM, 1000, 1));
        try (DataInputStream in = newest.openBody()) {
            StateSnapshots.readBody(state, in, newest.zxid());
        }
        int version = state.tree().node(path).version();
        state.tree().apply(new Txn(0, 0, newest.zxid(), System.currentTimeMillis(),
                new TxnBody.SetData(path, data.getBytes(StandardCharsets.UTF_8), version + 1)));
        store.write(newest.zxid(), out -> StateSnapshots.writeBody(state, out));
    }

    private static List<Path> files(Path dir, String prefix) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && !p.getFileName().toString().endsWith(".tmp")).sorted().toList();
        }
    }
}
