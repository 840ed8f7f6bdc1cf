package dev.warden.cli.data;

import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.storage.SnapshotStore;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Warden snapshot file verified and loaded into a fresh state, read only.
 *
 * @param zxid        the zxid the snapshot was started at
 * @param reachedZxid the zxid it had reached when it was finished (above zxid: fuzzy)
 */
record LoadedSnapshot(Path file, long zxid, long reachedZxid, StateMachine state) {

    /** Tick of the state's session table; tools never expire sessions, so any positive value does. */
    private static final long TOOL_TICK_MS = 2000;

    static StateMachine emptyState() {
        return new StateMachine(new DataTree(), new SessionTracker(Clock.SYSTEM, TOOL_TICK_MS, 0));
    }

    boolean isFuzzy() {
        return reachedZxid != zxid;
    }

    /**
     * The snapshot {@code input} names: a snapshot file, or the newest valid one in a snapshot
     * directory or in a data directory's {@code snapshots/}. A file that fails verification is
     * an {@link IOException} naming it and why.
     */
    static LoadedSnapshot load(Path input) throws IOException {
        Path file = resolve(input);
        SnapshotStore.SnapshotFile verified = SnapshotStore.verifyFile(file);
        if (!verified.isValid()) {
            throw new IOException(file + " is not a valid Warden snapshot: " + verified.problem().orElseThrow());
        }
        StateMachine state = emptyState();
        long reached;
        try (DataInputStream in = verified.snapshot().openBody()) {
            reached = StateSnapshots.readBody(state, in, verified.zxid());
        } catch (EOFException truncated) {
            throw new IOException(file + ": the snapshot body ends early", truncated);
        }
        return new LoadedSnapshot(file, verified.zxid(), reached, state);
    }

    private static Path resolve(Path input) throws IOException {
        if (Files.isRegularFile(input)) {
            return input;
        }
        if (!Files.isDirectory(input)) {
            throw new IOException(input + " does not exist");
        }
        Path dir = Files.isDirectory(input.resolve("snapshots")) ? input.resolve("snapshots") : input;
        List<Path> newestFirst;
        try (var files = Files.list(dir)) {
            newestFirst = files.filter(f -> f.getFileName().toString().matches("snapshot\\.[0-9a-f]{16}"))
                    .sorted(java.util.Comparator.reverseOrder()).toList();
        }
        for (Path candidate : newestFirst) {
            if (SnapshotStore.verifyFile(candidate).isValid()) {
                return candidate;
            }
        }
        throw new IOException(dir + " holds no valid Warden snapshot" + (newestFirst.isEmpty() ? ""
                : " (" + newestFirst.size() + " invalid; 'warden snapshot dump FILE' says why for one)"));
    }
}
