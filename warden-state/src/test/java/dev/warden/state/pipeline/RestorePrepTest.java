package dev.warden.state.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.common.Clock;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.SnapshotStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prep and a restore: between a restore's prep and its apply, writes are answered CONNECTIONLOSS
 * (prep cannot check them against the state they will meet), sessions still come and go, and a
 * snapshot after the last zxid is refused.
 */
class RestorePrepTest {
    private static final long SESSION = 0x100000000000001L;

    @TempDir
    Path dir;

    private final StateMachine state = new StateMachine(new DataTree(), new SessionTracker(Clock.SYSTEM, 1000, 1));
    private final PendingState pending = new PendingState(state.tree());
    private final Preparer preparer = new Preparer(pending, state.sessions(), Clock.SYSTEM, new SplittableRandom(1),
            false, 0);

    @Test
    void writesWaitingForARestoreAreRefusedUntilItIsApplied() throws Exception {
        applyPrepared(Request.createSession(origin(), 10_000, false));
        long session = state.sessions().sessions().get(0).id();
        applyPrepared(create(session, "/a"));
        byte[] snapshot = snapshotFile();

        Request restore = new Request(origin(), 0, 1, RestoreRequest.OPCODE, new RestoreRequest(snapshot));
        preparer.prepare(restore);
        assertInstanceOf(TxnBody.Restore.class, restore.txn().body());

        Request meanwhile = setData(session, "/a");
        preparer.prepare(meanwhile);
        assertEquals(ErrorCode.CONNECTION_LOSS, meanwhile.error());
        assertNull(meanwhile.txn());
        Request secondRestore = new Request(origin(), 0, 2, RestoreRequest.OPCODE, new RestoreRequest(snapshot));
        preparer.prepare(secondRestore);
        assertEquals(ErrorCode.CONNECTION_LOSS, secondRestore.error());
        Request newSession = Request.createSession(origin(), 10_000, false);
        preparer.prepare(newSession);
        assertNotNull(newSession.txn(), "sessions do not depend on the tree: they go on");

        state.apply(restore.txn());
        state.apply(newSession.txn());
        Request after = setData(session, "/a");
        preparer.prepare(after);
        assertNull(after.error());
        assertNotNull(after.txn());
    }

    @Test
    void aSnapshotAfterTheLastZxidIsRefused() throws Exception {
        applyPrepared(Request.createSession(origin(), 10_000, false));
        long session = state.sessions().sessions().get(0).id();
        applyPrepared(create(session, "/a"));
        byte[] snapshot = snapshotFile(); // at zxid 2
        preparer.resetTo(1);
        Request restore = new Request(origin(), 0, 1, RestoreRequest.OPCODE, new RestoreRequest(snapshot));
        preparer.prepare(restore);
        assertEquals(ErrorCode.BAD_ARGUMENTS, restore.error());
        assertNull(restore.txn());
    }

    private void applyPrepared(Request request) {
        preparer.prepare(request);
        assertNull(request.error(), request.toString());
        state.apply(request.txn());
        pending.applied(request.pendingRecords());
    }

    private byte[] snapshotFile() throws Exception {
        Path snapshots = Files.createTempDirectory(dir, "snap");
        return Files.readAllBytes(new SnapshotStore(snapshots).write(state.lastAppliedZxid(),
                out -> StateSnapshots.writeBody(state, out)));
    }

    private static Request create(long session, String path) {
        return new Request(origin(), session, 1, OpCode.CREATE,
                new CreateRequest(path, new byte[0], Perms.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT.flags()));
    }

    private static Request setData(long session, String path) {
        return new Request(origin(), session, 2, OpCode.SET_DATA, new SetDataRequest(path, new byte[] {1}, -1));
    }

    private static Origin origin() {
        return new TxnGenerator.TestOrigin();
    }
}
