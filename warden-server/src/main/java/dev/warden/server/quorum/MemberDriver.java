package dev.warden.server.quorum;

import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.peer.PeerSender;
import dev.warden.server.threads.ServerThreads;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.Request;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's host for a {@link MemberLoop}: the threads around the member's deterministic
 * logic. The loop runs on one Netty event loop (the driver thread), and the peer transport puts
 * its connections on that same loop ({@link #eventLoopGroup()}): a peer's frame is read, fed to
 * the core and answered on one thread, and a send made there is written to the socket before it
 * returns, without waking another thread. Other threads queue events in a bounded inbox; each
 * cycle takes everything queued, reads the clock once and runs one {@link MemberLoop#cycle}, so
 * proposals, acknowledgements and fsyncs batch by themselves under load. A timer runs a cycle
 * every {@code idlePollMs} so the core ticks when nothing arrives.
 *
 * <p>The log's appends and fsyncs run on a {@link LogWriter} thread of its own (the loop's
 * {@link MemberLoop.LogDisk}), so a slow disk never holds up the peers' reads and pings; when it
 * finishes batches it queues one {@link LoopEvent.LogProgress}. The one exception is a member
 * that leads an ensemble of itself alone, where no peer waits on this thread: when nothing else
 * is in flight anywhere in the member (inlineIdleWrites, {@code idleElsewhere}) and the disk is
 * fast (see {@link LogWriter}), it writes the batch itself and commits and hands it to the apply
 * thread in the same cycle.
 *
 * <p>If the loop cannot persist (the log or the epochs cannot be written), or fails in any other
 * way (an {@code OutOfMemoryError} above all), the driver stops before advancing the core further,
 * so nothing more is acknowledged, and reports the failure so the member stops serving.
 */
public final class MemberDriver implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MemberDriver.class);

    private final Clock clock;
    private final long idlePollMs;
    private final BlockingQueue<LoopEvent> inbox;
    private final List<LoopEvent> events = new ArrayList<>();
    private final String threadName;
    private final EventLoopGroup loopGroup;
    private final EventLoop loop;
    private final DriverEffects effects;
    private final MemberLoop member;
    /** Set while a cycle is queued on the loop, so a burst of events queues one cycle. */
    private final AtomicBoolean cycleQueued = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean started;
    private ScheduledFuture<?> ticker;
    private volatile boolean running = true;
    private final LogWriter logWriter;
    /** True while the rest of the member has no work in flight that a write on the driver would delay. */
    private final BooleanSupplier idleElsewhere;
    /** Set while a LogProgress is queued, so the writer queues at most one at a time. */
    private final AtomicBoolean progressQueued = new AtomicBoolean();

    /**
     * @param idlePollMs      longest wait for an event before the core is ticked anyway
     * @param inboxCapacity   bound on queued events; producers wait when it is full
     * @param idleElsewhere   whether the rest of the member is idle (at most the request this
     *                        batch carries in flight), so that a member alone in its ensemble may
     *                        write an idle batch on the driver thread; always false when it may not
     */
    public MemberDriver(long myId, ConsensusCore core, PeerSender sender, DriverEffects effects,
                        MemberLoop.PrepState prepState, LongSupplier logLastZxid, Clock clock, long idlePollMs,
                        int inboxCapacity, String threadName, BooleanSupplier idleElsewhere) {
        this.clock = clock;
        this.effects = effects;
        this.idlePollMs = Math.max(1, idlePollMs);
        this.inbox = new ArrayBlockingQueue<>(inboxCapacity);
        this.threadName = threadName;
        NioEventLoopGroup group = ServerThreads.eventLoops(threadName, 1);
        // each pass handles all I/O and then every queued task, so a cycle is never cut short
        group.setIoRatio(100);
        this.loopGroup = group;
        this.loop = group.next();
        this.idleElsewhere = idleElsewhere;
        this.logWriter = new LogWriter(effects::persist, this::logProgress, threadName + "-log",
                this::writeAtOnceAllowed);
        this.member = new MemberLoop(myId, core, sender, effects, logWriter, prepState,
                this::runOnDriverThread, logLastZxid, clock);
    }

    /**
     * Driver thread: a log batch may be written on it only when no peer depends on it, nothing
     * waits for it and the rest of the member is idle too.
     */
    private boolean writeAtOnceAllowed() {
        return member.leadsAlone() && inbox.isEmpty() && idleElsewhere.getAsBoolean();
    }

    /** From the log writer: batches are done; wake the driver, with at most one such event queued. */
    private void logProgress() {
        if (progressQueued.compareAndSet(false, true)) {
            offer(new LoopEvent.LogProgress());
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
        offer(new LoopEvent.PeerMessage(from, message));
    }

    public void peerDisconnected(long peerId) {
        offer(new LoopEvent.PeerDown(peerId));
    }

    /** Leader: replicate the txn with this zxid (zxids in order, from one thread). */
    public void propose(long zxid, byte[] payload) {
        offer(new LoopEvent.Propose(zxid, payload));
    }

    public void sendToLeader(AppMessage message) {
        offer(new LoopEvent.ToLeader(message));
    }

    public void sendTo(long peerId, byte[] payload) {
        offer(new LoopEvent.ToMember(peerId, payload));
    }

    public void sync(long token) {
        offer(new LoopEvent.Sync(token));
    }

    /** The member's state can no longer be vouched for: the core gives up its history (see ConsensusCore). */
    public void abandonHistory() {
        runOnDriverThread(member::abandonHistory);
    }

    /**
     * Runs {@code body} on the driver thread between events (work on state only the core's thread
     * may touch). From the driver thread itself it runs in the next cycle, which follows at once.
     */
    public void runOnDriverThread(Runnable body) {
        offer(new LoopEvent.Chore(body));
    }

    /** Apply thread: {@code zxid} is applied. */
    public void applied(long zxid) {
        member.applied(zxid);
    }

    /** Driver thread: the leader's own housekeeping request (expiry, reaping), prepared if it leads. */
    public void prepareHousekeeping(Request request) {
        requireDriverThread();
        member.prepareHousekeeping(request);
    }

    public Role role() {
        return member.standing().role();
    }

    public boolean isServing() {
        return member.standing().serving();
    }

    public long leaderId() {
        return member.standing().leaderId();
    }

    /** Role, leader, serving and epoch as of one moment, for a reader that needs them to agree. */
    public MemberStanding standing() {
        return member.standing();
    }

    /**
     * On the driver thread only (in a chore): true if the core is a serving leader that heard
     * from a quorum of voters within the last {@code windowMs}, as of this cycle's tick. A chore
     * runs after the cycle's tick, so a leader resumed after a long pause has already stepped
     * down when it asks.
     */
    public boolean leaderHeardQuorumWithin(long windowMs) {
        requireDriverThread();
        return member.leaderHeardQuorumWithin(windowMs);
    }

    /** Events waiting for the driver thread; any thread. */
    public int inboxDepth() {
        return inbox.size();
    }

    /** Peers heard from within the last {@code windowMs}. */
    public Set<Long> peersHeardWithin(long windowMs) {
        return member.peersHeardWithin(windowMs);
    }

    /** An observer syncs from {@code memberId} from its next attempt on (ZooKeeper's setLearnerMaster); any thread. */
    public void requestLearnerMaster(long memberId) {
        runOnDriverThread(() -> member.requestLearnerMaster(memberId));
    }

    /** The member loop's figures (transactions, syncs, followers' lag, learners); any thread. */
    MemberLoopFigures figures() {
        return member.figures();
    }

    public boolean isRunning() {
        return running;
    }

    private void requireDriverThread() {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("the member's core is reached only on the driver thread");
        }
    }

    private void offer(LoopEvent event) {
        if (!running) {
            return;
        }
        if (loop.inEventLoop()) {
            member.offer(event);
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

    /** One cycle on the loop thread: everything queued since the last, one clock reading, one loop cycle. */
    private void cycle() {
        // Before start() the member may still be wiring the sender up: what its peer links read
        // meanwhile waits, in order, for the first cycle that start() queues.
        if (!running || !started) {
            return;
        }
        try {
            progressQueued.set(false);
            inbox.drainTo(events);
            member.cycle(clock.monotonicMs(), events);
            events.clear();
            if (member.hasOwnEvents()) {
                queueCycle();
            }
        } catch (IOException e) {
            fail();
            log.error("{}: cannot write its log or epochs ({}); it stops acknowledging and serving "
                    + "and leaves the ensemble until restarted", threadName, e.toString());
            effects.failed("storage failure: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            // An Error too (OutOfMemoryError above all): a member whose driver died must not go
            // on holding client connections as if it still led or followed.
            fail();
            log.error("{}: the driver failed; the member stops serving", threadName, e);
            effects.failed("driver failure: " + e, e);
        }
    }

    private void fail() {
        running = false;
        member.stopServing();
        events.clear();
        finish();
    }

    private void finish() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        logWriter.close();
        stopped.countDown();
    }

    /**
     * Stops the cycle after the events already queued and waits for it; the loop itself keeps
     * running, so connections on it can still be closed in order.
     */
    public void stop() {
        if (running && started) {
            if (loop.inEventLoop()) {
                stopOnLoop();
            } else {
                try {
                    loop.execute(this::stopOnLoop);
                    stopped.await(10, TimeUnit.SECONDS);
                } catch (RejectedExecutionException alreadyClosed) {
                    // nothing left to stop
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        running = false;
        logWriter.close();
    }

    /** On the loop: the events already queued get one last cycle, then nothing more runs. */
    private void stopOnLoop() {
        if (!running) {
            return;
        }
        cycle();
        running = false;
        member.stopServing();
        finish();
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
