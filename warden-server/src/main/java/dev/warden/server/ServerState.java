package dev.warden.server;

import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.storage.SnapshotStore;
import java.io.IOException;
import java.nio.file.Path;

/** Writes a snapshot of the state (body format: {@link StateSnapshots}); recovery is in {@code recovery}. */
final class ServerState {

    private ServerState() {
    }

    static Path writeSnapshot(SnapshotStore store, StateMachine state) throws IOException {
        long zxid = state.tree().lastAppliedZxid();
        return store.write(zxid, out -> StateSnapshots.writeBody(state, out));
    }
}
