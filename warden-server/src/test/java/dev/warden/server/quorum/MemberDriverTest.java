package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import dev.warden.consensus.Received;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.SnapshotData;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.peer.PeerSender;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The driver performs a Ready batch in its documented order, never advances past a failed write,
 * and never waits on itself.
 */
class MemberDriverTest {
    private final List<String> trace = Collections.synchronizedList(new ArrayList<>());

    @Test
    void performsReadyInOrderThenAdvances() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        Ready ready = new Ready(new RoleChange(Role.FOLLOWING, 2, 1, true),
                List.of(new Outbound(2, new ZabMessage.Ping(1, 0))), new EpochState(1, 1), 5,
                new SnapshotData(4, new byte[0]), List.of(entry), List.of(new Outbound(2, new ZabMessage.Ack(entry.zxid()))),
                List.of(entry), List.of(new Received(2, AppMessage.encode(new AppMessage.Activity(List.of())))), List.of(77L));
        ScriptedCore core = new ScriptedCore(ready);
        try (MemberDriver driver = driver(core, (to, m) -> trace.add("send " + m.getClass().getSimpleName()),
                new RecordingEffects(false), Clock.SYSTEM, 1, 16, "test-driver")) {
            driver.start();
            assertTrue(core.advanced.await(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of("role FOLLOWING", "send Ping", "epochs", "truncate 5", "snapshot 4", "persist 1",
                "send Ack", "committed 1", "received 2", "syncs [77]", "advance"), trace);
    }

    @Test
    void storageFailureStopsBeforeAcknowledging() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        Ready ready = new Ready(null, List.of(), null, -1, null, List.of(entry),
                List.of(new Outbound(2, new ZabMessage.Ack(entry.zxid()))), List.of(), List.of(), List.of());
        ScriptedCore core = new ScriptedCore(ready);
        RecordingEffects effects = new RecordingEffects(true);
        try (MemberDriver driver = driver(core, (to, m) -> trace.add("send " + m.getClass().getSimpleName()),
                effects, Clock.SYSTEM, 1, 16, "test-driver")) {
            driver.start();
            assertTrue(effects.failed.await(5, TimeUnit.SECONDS));
            assertFalse(driver.isRunning());
        }
        assertEquals(List.of("persist 1", "failed"), trace);
        assertEquals(1, core.advanced.getCount());
    }

    @Test
    void anIdleDriverSendsFirstThenWritesOnItsOwnThreadAndSettlesInTheSameCycle() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        // a leader's proposal and its own acknowledgement; the commit is handed out only after
        // the core has advanced past the appended batch, as a core of one member does
        Ready appends = pingThenAppendAndAck(entry);
        Ready commits = new Ready(null, List.of(), null, -1, null, List.of(), List.of(), List.of(entry), List.of(),
                List.of());
        List<Long> cycles = Collections.synchronizedList(new ArrayList<>());
        ScriptedCore core = new ScriptedCore(3, leadsAlone(), appends) {
            private boolean commitHandedOut;

            @Override public dev.warden.consensus.Configurations configurations() { return ofMemberOneAlone(); }
            @Override public void tick(long nowMs) { cycles.add(nowMs); }
            @Override public boolean hasReady() { return super.hasReady() || (advanced.getCount() == 1 && !commitHandedOut); }

            @Override
            public Ready ready() {
                if (super.hasReady()) {
                    return super.ready();
                }
                commitHandedOut = true;
                return commits;
            }
        };
        RecordingEffects effects = new RecordingEffects(false) {
            @Override
            public void persist(List<Entry> entries) throws IOException {
                trace.add("persist " + entries.size() + " on " + Thread.currentThread().getName());
            }
        };
        try (MemberDriver driver = driver(core, (to, m) -> trace.add("send " + m.getClass().getSimpleName()),
                effects, Clock.SYSTEM, 60_000, 16, "test-driver", true)) {
            driver.start();
            assertTrue(core.advanced.await(5, TimeUnit.SECONDS));
            assertEquals(1, cycles.size(), "all of it in the first cycle (closing runs one more)");
        }
        assertEquals(List.of("role LEADING", "advance", "send Ping", "persist 1 on test-driver", "send Ack", "advance",
                "committed 1", "advance"), trace);
    }

    @Test
    void aFailedWriteAtOnceStopsTheDriverBeforeAcknowledging() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        Ready ready = new Ready(null, List.of(), null, -1, null, List.of(entry),
                List.of(new Outbound(2, new ZabMessage.Ack(entry.zxid()))), List.of(), List.of(), List.of());
        ScriptedCore core = new ScriptedCore(2, leadsAlone(), ready) {
            @Override public dev.warden.consensus.Configurations configurations() { return ofMemberOneAlone(); }
        };
        RecordingEffects effects = new RecordingEffects(true) {
            @Override
            public void persist(List<Entry> entries) throws IOException {
                trace.add("on " + Thread.currentThread().getName());
                super.persist(entries);
            }
        };
        try (MemberDriver driver = driver(core, (to, m) -> trace.add("send " + m.getClass().getSimpleName()),
                effects, Clock.SYSTEM, 1, 16, "test-driver", true)) {
            driver.start();
            assertTrue(effects.failed.await(5, TimeUnit.SECONDS));
            assertFalse(driver.isRunning());
        }
        assertEquals(List.of("role LEADING", "advance", "on test-driver", "persist 1", "failed"), trace);
        assertEquals(1, core.advanced.getCount());
    }

    @Test
    void aLeaderWithFollowersLeavesEveryWriteToTheLogThreadSoAHungDiskNeverStopsItsPings() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        Ready appends = new Ready(null, List.of(), null, -1, null, List.of(entry), List.of(), List.of(), List.of(),
                List.of());
        ScriptedCore core = new ScriptedCore(2, leadsAlone(), appends); // voters 1, 2 and 3
        RecordingEffects effects = new RecordingEffects(false) {
            @Override
            public void persist(List<Entry> entries) throws IOException {
                trace.add("persist " + entries.size() + " on " + Thread.currentThread().getName());
            }
        };
        try (MemberDriver driver = driver(core, (to, m) -> { }, effects, Clock.SYSTEM, 1, 16, "test-driver", true)) {
            driver.start();
            assertTrue(core.advanced.await(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of("role LEADING", "advance", "persist 1 on test-driver-log", "advance"), trace);
    }

    /** A Ready that makes member 1 a serving leader. */
    private static Ready leadsAlone() {
        return new Ready(new RoleChange(Role.LEADING, 1, 1, true), List.of(), null, -1, null, List.of(), List.of(),
                List.of(), List.of(), List.of());
    }

    /** Member 1 the only voter, with no observer. */
    private static dev.warden.consensus.Configurations ofMemberOneAlone() {
        return dev.warden.consensus.Configurations.of(
                dev.warden.consensus.Configuration.majority(0, java.util.Set.of(1L), java.util.Set.of()));
    }

    @Test
    void anErrorInTheCoreStopsTheDriverAndTheServingInsteadOfKillingTheThreadSilently() throws Exception {
        ScriptedCore core = new ScriptedCore(new Ready(null, List.of(), null, -1, null, List.of(), List.of(),
                List.of(), List.of(), List.of())) {
            @Override
            public void receive(long fromId, ZabMessage message) {
                throw new OutOfMemoryError("Java heap space (simulated)");
            }
        };
        RecordingEffects effects = new RecordingEffects(false);
        try (MemberDriver driver = driver(core, (to, m) -> { }, effects, Clock.SYSTEM, 1, 16,
                "test-driver")) {
            driver.start();
            driver.peerMessage(2, new ZabMessage.Ping(1, 0));
            assertTrue(effects.failed.await(5, TimeUnit.SECONDS), "the member was told to stop serving");
            assertFalse(driver.isRunning());
            assertFalse(driver.isServing());
        }
    }

    @Test
    void messagesReadOnTheLoopBeforeStartWaitForItAndKeepTheirOrder() throws Exception {
        // The peer links share the driver's event loop and may read before the member has
        // started its driver: nothing may reach the core until then, and then all in order.
        List<Long> rounds = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allFed = new CountDownLatch(3);
        ScriptedCore core = new ScriptedCore(new Ready(null, List.of(), null, -1, null, List.of(), List.of(),
                List.of(), List.of(), List.of())) {
            @Override
            public void receive(long fromId, ZabMessage message) {
                rounds.add(((ZabMessage.Ping) message).round());
                allFed.countDown();
            }
        };
        try (MemberDriver driver = driver(core, (to, m) -> { }, new RecordingEffects(false), Clock.SYSTEM,
                1, 16, "test-driver")) {
            driver.eventLoopGroup().next().submit(() -> {
                for (long round = 1; round <= 3; round++) {
                    driver.peerMessage(2, new ZabMessage.Ping(round, 0));
                }
            }).await(5, TimeUnit.SECONDS);
            Thread.sleep(50);
            assertEquals(List.of(), rounds, "fed to the core before the driver started");
            driver.start();
            assertTrue(allFed.await(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of(1L, 2L, 3L), rounds);
    }

    @Test
    void eventsTheDriverGivesItselfNeverWaitOnItsFullInbox() throws Exception {
        // The leader's prep step runs on the driver thread and proposes from there: with an inbox
        // of 2, a hundred proposals from the driver itself must neither block nor be lost.
        ScriptedCore core = new ScriptedCore(new Ready(null, List.of(), null, -1, null, List.of(), List.of(),
                List.of(), List.of(), List.of()));
        CountDownLatch done = new CountDownLatch(1);
        try (MemberDriver driver = driver(core, (to, m) -> { }, new RecordingEffects(false), Clock.SYSTEM,
                1, 2, "test-driver")) {
            driver.start();
            driver.runOnDriverThread(() -> {
                for (long zxid = 1; zxid <= 100; zxid++) {
                    driver.propose(zxid, new byte[] {1});
                }
                driver.runOnDriverThread(done::countDown);
            });
            assertTrue(done.await(5, TimeUnit.SECONDS), "the driver waited on itself");
        }
        List<Long> expected = new ArrayList<>();
        for (long zxid = 1; zxid <= 100; zxid++) {
            expected.add(zxid);
        }
        assertEquals(expected, core.proposed);
    }

    @Test
    void whileAnFsyncIsInFlightLaterMessagesLeaveButWhatItPromisesWaits() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        // a follower: its acknowledgement promises the entry; a later ping reply to the same
        // leader must queue behind it, one to another member need not
        Ready appends = pingThenAppendAndAck(entry);
        Ready later = new Ready(null, List.of(new Outbound(2, new ZabMessage.PingAck(1)),
                new Outbound(3, new ZabMessage.PingAck(2))), null, -1, null, List.of(), List.of(), List.of(entry),
                List.of(new Received(2, AppMessage.encode(new AppMessage.Activity(List.of())))), List.of(77L));
        ScriptedCore core = new ScriptedCore(2, appends, later);
        BlockingEffects effects = new BlockingEffects();
        try (MemberDriver driver = driver(core, (to, m) -> trace.add("send " + m.getClass().getSimpleName()
                + " to " + to), effects, Clock.SYSTEM, 1, 16, "test-driver")) {
            driver.start();
            try {
                assertTrue(effects.persistStarted.await(5, TimeUnit.SECONDS));
                awaitTraced("received 2");
                assertEquals(List.of("send Ping to 2", "send PingAck to 3", "received 2"), driverTrace());
            } finally {
                effects.release.countDown();
            }
            assertTrue(core.advanced.await(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of("send Ping to 2", "send PingAck to 3", "received 2", "send Ack to 2",
                "send PingAck to 2", "advance", "committed 1", "syncs [77]", "advance"), driverTrace());
    }

    /** The trace without the log thread's line, whose place among the driver's is a race. */
    private List<String> driverTrace() {
        synchronized (trace) {
            return trace.stream().filter(line -> !line.startsWith("persist")).toList();
        }
    }

    @Test
    void aBatchThatChangesTheRoleWaitsForTheFsyncInFlight() throws Exception {
        Entry entry = new Entry(0x1_0000_0001L, new byte[] {1});
        Ready appends = new Ready(null, List.of(), null, -1, null, List.of(entry),
                List.of(new Outbound(2, new ZabMessage.Ack(entry.zxid()))), List.of(), List.of(), List.of());
        Ready roleChange = new Ready(new RoleChange(Role.LOOKING, -1, -1, false), List.of(), null, -1, null,
                List.of(), List.of(), List.of(), List.of(), List.of());
        ScriptedCore core = new ScriptedCore(2, appends, roleChange);
        BlockingEffects effects = new BlockingEffects();
        try (MemberDriver driver = driver(core, (to, m) -> trace.add("send " + m.getClass().getSimpleName()),
                effects, Clock.SYSTEM, 1, 16, "test-driver")) {
            driver.start();
            try {
                assertTrue(effects.persistStarted.await(5, TimeUnit.SECONDS));
                Thread.sleep(100); // room for a driver that did not wait to change its role now
            } finally {
                effects.release.countDown();
            }
            assertTrue(core.advanced.await(5, TimeUnit.SECONDS));
        }
        assertEquals(List.of("persist 1", "send Ack", "advance", "role LOOKING", "advance"), trace);
    }

    private void awaitTraced(String line) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!trace.contains(line) && System.nanoTime() < deadlineNs) {
            Thread.sleep(5);
        }
        assertTrue(trace.contains(line), "traced " + line + ": " + trace);
    }

    /** Effects whose fsync holds until released, as a slow disk would. */
    private final class BlockingEffects extends RecordingEffects {
        final CountDownLatch persistStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        BlockingEffects() {
            super(false);
        }

        @Override
        public void persist(List<Entry> entries) throws IOException {
            super.persist(entries);
            persistStarted.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
    }

    private class ScriptedCore implements ConsensusCore {
        private final Queue<Ready> script = new ArrayDeque<>();
        final CountDownLatch advanced;

        ScriptedCore(Ready ready) {
            this(1, ready);
        }

        /** Hands out the readies in order; {@code advanced} opens after that many advances. */
        ScriptedCore(int advances, Ready... readies) {
            script.addAll(List.of(readies));
            advanced = new CountDownLatch(advances);
        }

        @Override public void tick(long nowMs) { }
        @Override public dev.warden.consensus.ReconfigCheck checkReconfig(dev.warden.consensus.Configuration c) {
            return dev.warden.consensus.ReconfigCheck.NOT_LEADER;
        }
        @Override public dev.warden.consensus.Configurations configurations() {
            return dev.warden.consensus.Configurations.of(
                    dev.warden.consensus.Configuration.majority(0, java.util.Set.of(1L, 2L, 3L), java.util.Set.of()));
        }
        @Override public long configurationChanges() { return 0; }
        @Override public void receive(long fromId, ZabMessage message) { }
        @Override public void peerDisconnected(long peerId) { }
        final List<Long> proposed = Collections.synchronizedList(new ArrayList<>());

        @Override
        public boolean propose(long zxid, byte[] payload) {
            proposed.add(zxid);
            return true;
        }
        @Override public long nextZxid() { return -1; }
        @Override public boolean sendToLeader(byte[] payload) { return false; }
        @Override public boolean sendTo(long peerId, byte[] payload) { return false; }
        @Override public boolean sync(long token) { return false; }
        @Override public boolean leaderHeardQuorumWithin(long windowMs) { return false; }
        @Override public Role role() { return Role.FOLLOWING; }
        @Override public long leaderId() { return 2; }
        @Override public boolean isServing() { return true; }
        @Override public long committedZxid() { return 0; }
        @Override public void abandonHistory() { throw new UnsupportedOperationException("scripted core"); }
        @Override public boolean isResyncRequired() { return false; }
        @Override public boolean hasReady() { return !script.isEmpty(); }
        @Override public Ready ready() { return script.poll(); }

        @Override
        public void advance(Ready ready) {
            trace.add("advance");
            advanced.countDown();
        }
    }

    @Test
    void theLoopKeepsAtMostItsBoundOfBatchesWithTheLogWriter() throws Exception {
        // a core with endless work, each Ready one entry to log, and a disk that is slow to finish
        long[] nextZxid = {0x1_0000_0001L};
        ScriptedCore core = new ScriptedCore(Integer.MAX_VALUE) {
            @Override public boolean hasReady() { return true; }

            @Override
            public Ready ready() {
                Entry entry = new Entry(nextZxid[0]++, new byte[] {1});
                return new Ready(null, List.of(), null, -1, null, List.of(entry), List.of(), List.of(), List.of(),
                        List.of());
            }
        };
        List<LogBatch> withWriter = new ArrayList<>();
        MemberLoop loop = loop(core, withWriter::add);
        loop.cycle(0, List.of());
        assertEquals(MemberLoop.MAX_BATCHES_IN_FLIGHT, withWriter.size(), "no more batches than the bound");
        loop.cycle(1, List.of());
        assertEquals(MemberLoop.MAX_BATCHES_IN_FLIGHT, withWriter.size(), "nor while none is durable");

        withWriter.get(0).durable();
        loop.cycle(2, List.of(new LoopEvent.LogProgress()));
        assertEquals(MemberLoop.MAX_BATCHES_IN_FLIGHT + 1, withWriter.size(), "one settled, one more goes");
        assertEquals(Integer.MAX_VALUE - 1L, core.advanced.getCount(), "the settled batch advanced the core once");
    }

    /** A member loop for member 1 with a prep state of its own, run on the test's thread. */
    private MemberLoop loop(ConsensusCore core, MemberLoop.LogDisk disk) {
        DataTree tree = new DataTree();
        SessionTracker sessions = new SessionTracker(Clock.SYSTEM, 1000, 1);
        PendingState pending = new PendingState(tree);
        Preparer preparer = new Preparer(pending, sessions, Clock.SYSTEM, new SplittableRandom(1), false, 0);
        return new MemberLoop(1, core, (to, message) -> { }, new RecordingEffects(false), disk,
                new MemberLoop.PrepState(preparer, pending, sessions, tree, false), Runnable::run, () -> 0, Clock.SYSTEM);
    }

    /** A driver for member 1 whose prep has a state of its own (these tests never lead). */
    /** A Ready that pings member 2 at once, appends {@code entry} and acknowledges it to member 2 once durable. */
    private static Ready pingThenAppendAndAck(Entry entry) {
        return new Ready(null, List.of(new Outbound(2, new ZabMessage.Ping(1, 0))), null, -1, null, List.of(entry),
                List.of(new Outbound(2, new ZabMessage.Ack(entry.zxid()))), List.of(), List.of(), List.of());
    }

    private static MemberDriver driver(ConsensusCore core, PeerSender sender, DriverEffects effects, Clock clock,
                                       long idlePollMs, int inboxCapacity, String threadName) {
        return driver(core, sender, effects, clock, idlePollMs, inboxCapacity, threadName, false);
    }

    private static MemberDriver driver(ConsensusCore core, PeerSender sender, DriverEffects effects, Clock clock,
                                       long idlePollMs, int inboxCapacity, String threadName,
                                       boolean writeIdleAtOnce) {
        DataTree tree = new DataTree();
        SessionTracker sessions = new SessionTracker(clock, 1000, 1);
        PendingState pending = new PendingState(tree);
        Preparer preparer = new Preparer(pending, sessions, clock, new SplittableRandom(1), false, 0);
        return new MemberDriver(1, core, sender, effects, new MemberLoop.PrepState(preparer, pending, sessions, tree, false),
                () -> 0, clock, idlePollMs, inboxCapacity, threadName, () -> writeIdleAtOnce);
    }

    private class RecordingEffects implements DriverEffects {
        private final boolean diskFull;
        final CountDownLatch failed = new CountDownLatch(1);

        RecordingEffects(boolean diskFull) {
            this.diskFull = diskFull;
        }

        @Override public void roleChanged(RoleChange change, long nextZxid) { trace.add("role " + change.role()); }
        @Override public void saveEpochs(EpochState epochs) { trace.add("epochs"); }
        @Override public void truncateAfter(long zxid) { trace.add("truncate " + zxid); }
        @Override public void installSnapshot(SnapshotData snapshot) { trace.add("snapshot " + snapshot.zxid()); }
        @Override public void abandonHistory() { trace.add("abandon history"); }
        @Override public void resynced() { trace.add("resynced"); }
        @Override public void configurationCommitted(dev.warden.consensus.Configuration c) {
            trace.add("configuration " + c.version());
        }
        @Override public void configurationsChanged(dev.warden.consensus.Configurations c) { }

        @Override
        public void persist(List<Entry> entries) throws IOException {
            trace.add("persist " + entries.size());
            if (diskFull) {
                throw new IOException("No space left on device");
            }
        }

        @Override public void committed(CommittedEntries entries) { trace.add("committed " + entries.size()); }
        @Override public void memberMessage(long from, AppMessage message) { trace.add("received " + from); }
        @Override public void syncsDone(List<Long> tokens) { trace.add("syncs " + tokens); }
        @Override public void syncRefused(long token) { trace.add("sync refused " + token); }

        @Override
        public void failed(String reason, Throwable cause) {
            trace.add("failed");
            failed.countDown();
        }
    }
}
