package dev.warden.server.quorum;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import dev.warden.consensus.Received;
import dev.warden.consensus.Role;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.Clock;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's duty cycle: one thread that owns the consensus core. Other threads only queue
 * events (peer messages, proposals, sync requests); each cycle takes everything queued, reads
 * the clock once, ticks the core, feeds it the events and then performs its Ready batches in
 * their prescribed order. Because a cycle handles all that queued up meanwhile, proposals,
 * acknowledgements and fsyncs batch by themselves under load (group commit).
 *
 * <p>The log's appends and fsyncs run on a {@link LogWriter} thread of their own. While one is
 * written the driver goes on taking messages and proposals: a leader's next proposals leave
 * at once, and the batches that pile up meanwhile go to disk together with one fsync. What a
 * write promises waits for it in a {@link LogBatch}: acknowledgements (and any later message
 * to the same peer, so each peer gets its messages in order), and applying commits, completing
 * syncs and advancing the core, which happen in the order the core handed the batches out and
 * only once this member's own log holds the entries. A batch that changes the role, the epochs
 * or the log's start waits for every write in flight and then runs on the driver thread alone.
 *
 * <p>The driver's thread is a Netty event loop, and the peer transport puts its connections on
 * it ({@link #eventLoopGroup()}). A peer's message is read, fed to the core and answered on one
 * thread, and a send made there is written to the socket before it returns: a follower reads a
 * proposal and hands it to the log writer, a leader reads acknowledgements and writes commits,
 * without waking another thread for each step (on a small machine each wake-up costs tens of
 * microseconds of a write's latency). Frames read in one pass of the loop are fed to one cycle,
 * so batching is kept. Since the log is written on its own thread, a slow disk never holds up
 * the peers' reads and pings.
 *
 * <p>The core is never told a batch is done unless every write in it reached the disk: if the
 * log cannot be written, the driver stops (it acknowledges nothing more) and reports the
 * failure so the member stops serving.
 */
public final class MemberDriver implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MemberDriver.class);

    private sealed interface Event permits PeerMessage, PeerDown, Propose, ToLeader, ToMember, Sync, Chore, LogProgress,
            Stop {
    }

    private record PeerMessage(long from, ZabMessage message) implements Event {
    }

    private record PeerDown(long peerId) implements Event {
    }

    private record Propose(long zxid, byte[] payload) implements Event {
    }

    private record ToLeader(byte[] payload) implements Event {
    }

    private record ToMember(long peerId, byte[] payload) implements Event {
    }

    private record Sync(long token) implements Event {
    }

    private record Chore(Runnable body) implements Event {
    }

    /** The log writer finished (or failed) batches: settle them. */
    private record LogProgress() implements Event {
    }

    private record Stop() implements Event {
    }

    private final ConsensusCore core;
    private final PeerSender sender;
    private final DriverEffects effects;
    private final Clock clock;
    private final long idlePollMs;
    private final BlockingQueue<Event> inbox;
    /**
     * Events the driver thread gives itself (a proposal its prep step made, a chore it queued):
     * never through the bounded inbox, whose back-pressure would make the thread wait on itself.
     */
    private final ArrayDeque<Event> ownEvents = new ArrayDeque<>();
    private final List<Event> events = new ArrayList<>();
    private final String threadName;
    private final EventLoopGroup loopGroup;
    private final EventLoop loop;
    /** Set while a cycle is queued on the loop, so a burst of events queues one cycle. */
    private final AtomicBoolean cycleQueued = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean started;
    private ScheduledFuture<?> ticker;
    private volatile boolean running = true;
    private volatile MemberStanding standing = MemberStanding.INITIAL;
    private final PeersHeard peersHeard = new PeersHeard();
    private final LogWriter logWriter;
    /** Set while a LogProgress is queued, so the writer queues at most one at a time. */
    private final AtomicBoolean progressQueued = new AtomicBoolean();
    /** Batches with the log writer and the messages held in them (driver thread only). */
    private final BatchesInFlight inFlight = new BatchesInFlight();

    /**
     * @param idlePollMs      longest wait for an event before the core is ticked anyway
     * @param inboxCapacity   bound on queued events; producers wait when it is full
     */
    public MemberDriver(ConsensusCore core, PeerSender sender, DriverEffects effects, Clock clock, long idlePollMs,
                        int inboxCapacity, String threadName) {
        this.core = core;
        this.sender = sender;
        this.effects = effects;
        this.clock = clock;
        this.idlePollMs = Math.max(1, idlePollMs);
        this.inbox = new ArrayBlockingQueue<>(inboxCapacity);
        this.threadName = threadName;
        NioEventLoopGroup group = new NioEventLoopGroup(1, body -> {
            Thread thread = new FastThreadLocalThread(body, threadName);
            thread.setDaemon(true);
            return thread;
        });
        // each pass handles all I/O and then every queued task, so a cycle is never cut short
        group.setIoRatio(100);
        this.loopGroup = group;
        this.loop = group.next();
        this.logWriter = new LogWriter(effects::persist, this::logProgress, threadName + "-log");
    }

    /** From the log writer: batches are done; wake the driver, with at most one such event queued. */
    private void logProgress() {
        if (progressQueued.compareAndSet(false, true)) {
            offer(new LogProgress());
        }
    }

    public void start() {
        logWriter.start();
        started = true;
        ticker = loop.scheduleWithFixedDelay(this::cycle, idlePollMs, idlePollMs, TimeUnit.MILLISECONDS);
        queueCycle();
    }

    /**
     * The driver's thread as a Netty event loop group, for connections whose reads should reach
     * the core and whose writes should leave without another thread hand-off.
     */
    public EventLoopGroup eventLoopGroup() {
        return loopGroup;
    }

    // ---- called from other threads ------------------------------------------------------------

    public void peerMessage(long from, ZabMessage message) {
        offer(new PeerMessage(from, message));
    }

    public void peerDisconnected(long peerId) {
        offer(new PeerDown(peerId));
    }

    /** Leader: replicate the txn with this zxid (zxids in order, from one thread). */
    public void propose(long zxid, byte[] payload) {
        offer(new Propose(zxid, payload));
    }

    public void sendToLeader(byte[] payload) {
        offer(new ToLeader(payload));
    }

    public void sendTo(long peerId, byte[] payload) {
        offer(new ToMember(peerId, payload));
    }

    public void sync(long token) {
        offer(new Sync(token));
    }

    /** The member's state can no longer be vouched for: the core gives up its history (see ConsensusCore). */
    public void abandonHistory() {
        runOnDriverThread(() -> {
            if (!core.isResyncRequired()) {
                core.abandonHistory();
            }
        });
    }

    /**
     * Runs {@code body} on the driver thread between events (work on state only the core's thread
     * may touch). From the driver thread itself it runs in the next cycle, which follows at once.
     */
    public void runOnDriverThread(Runnable body) {
        offer(new Chore(body));
    }

    public Role role() {
        return standing.role();
    }

    public boolean isServing() {
        return standing.serving();
    }

    public long leaderId() {
        return standing.leaderId();
    }

    /** Role, leader, serving and epoch as of one moment, for a reader that needs them to agree. */
    public MemberStanding standing() {
        return standing;
    }

    /**
     * On the driver thread only (in a chore): true if the core is a serving leader that heard
     * from a quorum of voters within the last {@code windowMs}, as of this cycle's tick. A chore
     * runs after the cycle's tick, so a leader resumed after a long pause has already stepped
     * down when it asks.
     */
    public boolean leaderHeardQuorumWithin(long windowMs) {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("the core is asked only on the driver thread");
        }
        return core.leaderHeardQuorumWithin(windowMs);
    }

    /** Peers heard from within the last {@code windowMs}. */
    public Set<Long> peersHeardWithin(long windowMs) {
        return peersHeard.within(windowMs);
    }

    public boolean isRunning() {
        return running;
    }

    private void offer(Event event) {
        if (!running) {
            return;
        }
        if (loop.inEventLoop()) {
            ownEvents.add(event);
            queueCycle();
            return;
        }
        try {
            // A full inbox pushes back on whoever produces faster than the core can work.
            while (running && !inbox.offer(event, 100, TimeUnit.MILLISECONDS)) {
                queueCycle();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        queueCycle();
    }

    private void queueCycle() {
        if (cycleQueued.compareAndSet(false, true)) {
            try {
                loop.execute(this::queuedCycle);
            } catch (RejectedExecutionException closing) {
                cycleQueued.set(false); // the driver is closed: nothing will take the event
            }
        }
    }

    private void queuedCycle() {
        cycleQueued.set(false);
        cycle();
    }

    // ---- the duty cycle ---------------------------------------------------------------------

    /**
     * One cycle on the loop thread: everything queued since the last, one clock reading, a tick,
     * the events fed in order, then every Ready performed. Events it gives itself run in a cycle
     * queued at once after it.
     */
    private void cycle() {
        // Before start() the member may still be wiring the sender up: what its peer links read
        // meanwhile waits, in order, for the first cycle that start() queues.
        if (!running || !started) {
            return;
        }
        try {
            events.addAll(ownEvents);
            ownEvents.clear();
            inbox.drainTo(events);
            long nowMs = clock.monotonicMs();
            peersHeard.cycleAt(nowMs);
            core.tick(nowMs);
            for (Event event : events) {
                if (event instanceof Stop) {
                    running = false;
                    break;
                }
                feed(event);
            }
            events.clear();
            settleDurableBatches();
            while (running && core.hasReady()) {
                perform(core.ready());
            }
        } catch (InterruptedException e) {
            running = false;
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            running = false;
            standing = standing.notServing();
            log.error("{}: cannot write its log or epochs ({}); it stops acknowledging and serving "
                    + "and leaves the ensemble until restarted", threadName, e.toString());
            effects.failed("storage failure: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            // An Error too (OutOfMemoryError above all): a member whose driver died must not go
            // on holding client connections as if it still led or followed.
            running = false;
            standing = standing.notServing();
            log.error("{}: the driver failed; the member stops serving", threadName, e);
            effects.failed("driver failure: " + e, e);
        } finally {
            if (!running) {
                events.clear();
                ownEvents.clear();
                if (ticker != null) {
                    ticker.cancel(false);
                }
                logWriter.close();
                stopped.countDown();
            }
        }
    }

    private void feed(Event event) {
        if (event instanceof PeerMessage m) {
            peersHeard.heardFrom(m.from());
            core.receive(m.from(), m.message());
        } else if (event instanceof PeerDown d) {
            core.peerDisconnected(d.peerId());
        } else if (event instanceof Propose p) {
            if (!core.propose(p.zxid(), p.payload())) {
                log.debug("proposal {} refused: no longer a serving leader", Long.toHexString(p.zxid()));
            }
        } else if (event instanceof ToLeader t) {
            if (!core.sendToLeader(t.payload())) {
                log.debug("no serving leader for a forwarded message");
            }
        } else if (event instanceof ToMember t) {
            core.sendTo(t.peerId(), t.payload());
        } else if (event instanceof Chore c) {
            c.body().run();
        } else if (event instanceof Sync s) {
            if (!core.sync(s.token())) {
                effects.syncRefused(s.token());
            }
        } else if (event instanceof LogProgress) {
            progressQueued.set(false);
        }
    }

    /**
     * Performs one Ready batch. A batch that only appends entries (and sends, commits, delivers)
     * leaves its append and fsync to the log writer and returns: what must wait for them waits
     * in a {@link LogBatch}, and the driver meanwhile takes further events and batches, whose
     * proposals leave at once. A batch that changes role, epochs or the log's start first waits
     * for every write in flight and then runs entirely here.
     */
    private void perform(Ready ready) throws IOException, InterruptedException {
        if (ready.resetsState()) {
            awaitLogWrites();
            performInOrder(ready);
            return;
        }
        if (inFlight.isEmpty() && ready.entriesToPersist().isEmpty()) {
            performInOrder(ready);
            return;
        }
        List<Outbound> sendNow = inFlight.sendableNow(ready.sendImmediately());
        if (!ready.entriesToPersist().isEmpty()) {
            // The disk first: a leader's fsync then overlaps the writes of its proposals to the
            // peers instead of starting after them, and is more often done before their
            // acknowledgements come back (then its followers may commit on LeaderDurable).
            logWriter.submit(inFlight.add(ready.entriesToPersist()));
        }
        send(sendNow);
        for (Outbound message : ready.sendAfterPersist()) {
            inFlight.hold(message);
        }
        // Delivered now: what members tell each other does not depend on local durability,
        // and a leader's forwarded requests are prepared while the log is written.
        for (Received received : ready.received()) {
            effects.received(received);
        }
        inFlight.newest().settleWhenDurable.add(ready);
    }

    /** Waits until every batch with the log writer is durable, and settles them. */
    private void awaitLogWrites() throws IOException, InterruptedException {
        inFlight.awaitAll();
        settleDurableBatches();
    }

    /**
     * For each batch the log writer finished, oldest first: its entries become part of the
     * log's view, the messages held for it leave, and the Ready batches waiting on it commit,
     * complete their syncs and advance the core, in the order the core handed them out.
     */
    private void settleDurableBatches() throws IOException {
        LogBatch batch;
        while ((batch = inFlight.pollDurable()) != null) {
            effects.logged(batch.entries());
            send(batch.sendsWhenDurable);
            for (Ready ready : batch.settleWhenDurable) {
                if (!ready.committed().isEmpty()) {
                    effects.committed(ready.committed());
                }
                if (!ready.syncsDone().isEmpty()) {
                    effects.syncsDone(ready.syncsDone());
                }
                if (ready.resynced()) {
                    // the core marks it with the role change that makes the member serve, which goes
                    // through performInOrder; handled here too, so the marker can never be kept
                    effects.resynced();
                }
                core.advance(ready);
            }
        }
    }

    /** Performs one Ready batch in the order {@link Ready} documents, then advances the core. */
    private void performInOrder(Ready ready) throws IOException {
        if (ready.roleChange() != null) {
            RoleChange change = ready.roleChange();
            standing = standing.after(change.role(), change.leaderId(), change.epoch(), change.serving(),
                    clock.wallTimeMs());
            long nextZxid = change.role() == Role.LEADING && change.serving() ? core.nextZxid() : -1;
            effects.roleChanged(ready.roleChange(), nextZxid);
        }
        send(ready.sendImmediately());
        if (ready.abandonHistory()) {
            effects.abandonHistory();
        }
        if (ready.epochs() != null) {
            effects.saveEpochs(ready.epochs());
        }
        if (ready.truncateAfterZxid() >= 0) {
            effects.truncateAfter(ready.truncateAfterZxid());
        }
        if (ready.snapshot() != null) {
            effects.installSnapshot(ready.snapshot());
        }
        if (!ready.entriesToPersist().isEmpty()) {
            effects.persist(ready.entriesToPersist());
            effects.logged(ready.entriesToPersist());
        }
        send(ready.sendAfterPersist());
        if (!ready.committed().isEmpty()) {
            effects.committed(ready.committed());
        }
        for (Received received : ready.received()) {
            effects.received(received);
        }
        if (!ready.syncsDone().isEmpty()) {
            effects.syncsDone(ready.syncsDone());
        }
        if (ready.resynced()) {
            effects.resynced();
        }
        core.advance(ready);
    }

    private void send(List<Outbound> messages) {
        if (!messages.isEmpty()) {
            sender.sendAll(messages);
        }
    }

    /**
     * Stops the cycle after the events already queued and waits for it; the loop itself keeps
     * running, so connections on it can still be closed in order.
     */
    public void stop() {
        if (running && started) {
            offer(new Stop());
            if (!loop.inEventLoop()) {
                try {
                    stopped.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        running = false;
        logWriter.close();
    }

    /** Stops the cycle, then the loop thread. */
    @Override
    public void close() {
        stop();
        loopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (!loop.inEventLoop()) {
            loopGroup.terminationFuture().awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
