package dev.warden.server.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.server.threads.ServerThreads;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * prep → log → apply, one thread each, joined by queues. Each stage drains everything queued
 * at once, so one fsync covers a whole batch (group commit) and hand-offs are amortized.
 * Requests keep their arrival order through every stage, which gives per-session FIFO.
 *
 * If the log cannot persist a batch (disk full), the batch and everything prepared after it
 * fail with SYSTEMERROR and are never applied; prep state is rebuilt from the applied tree and
 * later writes try the disk again. Reads are unaffected.
 *
 * <p>A request that finds the pipeline empty, and whose client has sent nothing after it yet,
 * runs through the three stages on the submitting thread instead ({@link #submit}): with one
 * write in flight, the three thread hand-offs and the hop back to the connection's thread are
 * most of its latency beyond the fsync. A client that pipelines its writes has its next request
 * already received behind this one ({@link Request#moreBehind()}), so its writes take the queues
 * and share fsyncs. The stages
 * stay exclusive: the inline run starts only when no request is anywhere in the pipeline, holds
 * the log for its append and fsync, and the prep thread waits for it before taking the next
 * batch. It is not tried while the last fsync was slow ({@value #INLINE_MAX_FLUSH_NS} ns or
 * more): a disk that turns slow holds up a connection's thread for one fsync at most, and later
 * writes wait on the pipeline's threads until an fsync is fast again. The server's
 * {@code inlineIdleWrites=false} turns inline runs off.
 *
 * <p>Each of the three queues holds at most {@link #queueCapacity} requests. Connections stop
 * being read at {@code globalOutstandingLimit} requests in the pipeline, so a queue fills only
 * with what paused connections had already read; a thread that finds the next queue full waits
 * until the stage behind it takes a batch (a submitting event loop then reads none of its
 * connections meanwhile). Nothing is dropped, and no stage waits on one before it: the log
 * thread's wake-up for prep after a failed write is only offered, since a full prep queue
 * already wakes prep.
 */
public final class Pipeline implements RequestPipeline {
    private static final Logger log = LoggerFactory.getLogger(Pipeline.class);
    /** Control markers travelling through the queues in order with requests. */
    private static final Request STOP = new Request(null, 0, 0, Integer.MIN_VALUE, null);
    private static final Request RESUME_LOG = new Request(null, 0, 0, Integer.MIN_VALUE + 1, null);

    private final Preparer preparer;
    private final PendingState pending;
    private final TxnLog txnLog;
    private final StateMachine stateMachine;
    private final PipelineListener listener;
    private final SnapshotSchedule snapshots;
    private final RequestFinisher finisher;

    /** The least capacity of each queue, whatever {@code globalOutstandingLimit} is. */
    static final int MIN_QUEUE_CAPACITY = 65_536;
    private final BlockingQueue<Request> prepQueue;
    private final BlockingQueue<Request> logQueue;
    private final BlockingQueue<Request> applyQueue;
    private final OutstandingRequests outstanding;
    /**
     * Longest fsync after which the next idle request still runs inline (and a member alone
     * still writes an idle batch on its driver): a slow disk holds a thread once at most.
     */
    public static final long INLINE_MAX_FLUSH_NS = 2_000_000;
    /** Guards {@link #inlineRunning}; the prep thread waits on it. */
    private final Object inlineGate = new Object();
    private boolean inlineRunning;
    /** Held around every use of the log: by the log thread per batch, by an inline run. */
    private final Object logLock = new Object();
    /** How long the last fsync took, whichever thread made it. */
    private volatile long lastFlushNs;
    /** Requests that went through the stages on their submitting thread (for tests). */
    private final AtomicInteger inlineRuns = new AtomicInteger();
    private final boolean inlineEnabled;
    /** The log thread's failure state: set when a write failed, cleared by RESUME_LOG (under logLock). */
    private boolean failing;
    private final List<Thread> threads = new ArrayList<>();
    /** Set by the log thread when it failed; prep then resets and sends RESUME_LOG. */
    private volatile boolean resetRequested;
    private static final long FAILURE_LOG_INTERVAL_NS = 10_000_000_000L;
    /** -1 until the first failure; then failures since the last log line (log thread only). */
    private long failuresNotLogged = -1;
    private long lastFailureLogNs;

    /** @param inlineEnabled whether an idle pipeline runs a request on the submitting thread */
    public Pipeline(Preparer preparer, PendingState pending, TxnLog txnLog, StateMachine stateMachine,
                    ReadProcessor reads, PipelineListener listener, int outstandingLimit, int snapCount,
                    RandomGenerator random, boolean inlineEnabled) {
        this(preparer, pending, txnLog, stateMachine, reads, listener, outstandingLimit, snapCount, random,
                inlineEnabled, queueCapacity(outstandingLimit));
    }

    /** As the public constructor, with each queue holding at most {@code queueCapacity} requests. */
    Pipeline(Preparer preparer, PendingState pending, TxnLog txnLog, StateMachine stateMachine,
             ReadProcessor reads, PipelineListener listener, int outstandingLimit, int snapCount,
             RandomGenerator random, boolean inlineEnabled, int queueCapacity) {
        this.prepQueue = new LinkedBlockingQueue<>(queueCapacity);
        this.logQueue = new LinkedBlockingQueue<>(queueCapacity);
        this.applyQueue = new LinkedBlockingQueue<>(queueCapacity);
        this.inlineEnabled = inlineEnabled;
        this.preparer = preparer;
        this.pending = pending;
        this.txnLog = txnLog;
        this.stateMachine = stateMachine;
        this.listener = listener;
        this.outstanding = new OutstandingRequests(outstandingLimit, listener::belowOutstandingLimit);
        this.snapshots = new SnapshotSchedule(snapCount, random);
        this.finisher = new RequestFinisher(stateMachine, pending, reads, listener);
    }

    /**
     * Requests each queue holds at most: {@code globalOutstandingLimit}, and no fewer than
     * {@value #MIN_QUEUE_CAPACITY} so the connections paused at the limit can hand over what they
     * had already read without their event loops waiting.
     */
    static int queueCapacity(int outstandingLimit) {
        return Math.max(MIN_QUEUE_CAPACITY, outstandingLimit);
    }

    public void start(String namePrefix) {
        threads.add(ServerThreads.start(namePrefix + "-prep", this::prepLoop));
        threads.add(ServerThreads.start(namePrefix + "-log", this::logLoop));
        threads.add(ServerThreads.start(namePrefix + "-apply", this::applyLoop));
    }

    @Override
    public boolean submit(Request request) {
        // A request with more of its client's requests right behind it goes to the queues even
        // when the pipeline is idle: run inline, each of a pipelining client's writes would find
        // the pipeline idle again after the previous one's fsync and take one of its own, so the
        // client would get one fsync per write instead of one per batch.
        if (inlineEnabled && !request.moreBehind() && runInlineIfIdle(request)) {
            return true;
        }
        return enqueue(request);
    }

    private boolean enqueue(Request request) {
        boolean belowLimit = outstanding.enter();
        putUninterruptibly(prepQueue, request);
        return belowLimit;
    }

    /** Waits while {@code queue} is full; an interrupt meanwhile is kept for the caller to see. */
    private static void putUninterruptibly(BlockingQueue<Request> queue, Request request) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(request);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Requests run on their submitting thread so far. */
    public int inlineRuns() {
        return inlineRuns.get();
    }

    /**
     * Runs {@code request} through prep, log and apply on this thread if nothing else is in the
     * pipeline. Requests submitted meanwhile queue as usual, and prep waits for this run first,
     * so the order of requests is the order in which they entered.
     */
    private boolean runInlineIfIdle(Request request) {
        if (outstanding.count() != 0 || lastFlushNs >= INLINE_MAX_FLUSH_NS) {
            // the usual answer under load, found without the lock the connections' threads share
            return false;
        }
        synchronized (inlineGate) {
            if (inlineRunning || resetRequested || !outstanding.enterIfNone()) {
                return false;
            }
            inlineRunning = true;
        }
        try {
            inlineRuns.incrementAndGet();
            prepare(request);
            List<Request> forward = new ArrayList<>(1);
            synchronized (logLock) {
                logBatch(List.of(request), forward);
            }
            for (Request done : forward) {
                finishAndCount(done);
            }
        } finally {
            synchronized (inlineGate) {
                inlineRunning = false;
                inlineGate.notifyAll();
            }
        }
        return true;
    }

    private void awaitNoInlineRun() throws InterruptedException {
        synchronized (inlineGate) {
            while (inlineRunning) {
                inlineGate.wait();
            }
        }
    }

    private void prepare(Request request) {
        try {
            preparer.prepare(request);
        } catch (RuntimeException e) {
            log.error("prep failed for {}", request, e);
            request.presetError(ErrorCode.SYSTEM_ERROR, request.closeAfterReply());
        }
    }

    @Override
    public boolean isOverLimit() {
        return outstanding.isOverLimit();
    }

    @Override
    public int outstanding() {
        return outstanding.count();
    }

    private void prepLoop() {
        List<Request> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(prepQueue.take());
                awaitNoInlineRun();
                prepQueue.drainTo(batch);
                for (Request request : batch) {
                    if (request == STOP) {
                        logQueue.put(STOP);
                        return;
                    }
                    if (resetRequested) {
                        resetAfterLogFailure();
                    }
                    prepare(request);
                    logQueue.put(request);
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Prep side of recovery from a log failure: forget unapplied work and rewind zxids. */
    private void resetAfterLogFailure() throws InterruptedException {
        resetRequested = false;
        // Writes that did reach the disk must be in the tree before prep trusts it again.
        long durable = txnLog.lastDurableZxid();
        while (stateMachine.tree().lastAppliedZxid() < durable) {
            Thread.sleep(1);
        }
        pending.clear();
        preparer.resetTo(txnLog.lastDurableZxid());
        logQueue.put(RESUME_LOG);
    }

    private void logLoop() {
        List<Request> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(logQueue.take());
                logQueue.drainTo(batch);
                List<Request> forward = new ArrayList<>(batch.size());
                boolean stop;
                synchronized (logLock) {
                    stop = logBatch(batch, forward);
                }
                for (Request request : forward) {
                    applyQueue.put(request);
                }
                batch.clear();
                if (stop) {
                    applyQueue.put(STOP);
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Appends the batch's transactions, fsyncs once, and puts what goes on to apply in
     * {@code forward}, in order; rolls the log when a snapshot is due. Returns true at STOP.
     * Under {@link #logLock}.
     */
    private boolean logBatch(List<Request> batch, List<Request> forward) {
        boolean stop = false;
        int appended = 0;
        for (Request request : batch) {
            if (request == STOP) {
                stop = true;
                break;
            }
            if (request == RESUME_LOG) {
                failing = false;
                continue;
            }
            if (request.txn() != null) {
                if (failing) {
                    request.abandonWrite(ErrorCode.SYSTEM_ERROR);
                } else {
                    try {
                        txnLog.append(request.txn().zxid(), request.txn().encode());
                        appended++;
                    } catch (IOException e) {
                        failing = failBatch(forward, request, e);
                        continue;
                    }
                }
            }
            forward.add(request);
        }
        if (appended > 0 && !failing) {
            try {
                long startNs = System.nanoTime();
                txnLog.flush();
                lastFlushNs = System.nanoTime() - startNs;
                if (failuresNotLogged >= 0) {
                    log.info("transaction log writes succeed again");
                    failuresNotLogged = -1;
                }
            } catch (IOException e) {
                failing = failBatch(forward, null, e);
            }
        }
        if (!failing) {
            maybeRollForSnapshot(appended);
        }
        return stop;
    }

    /**
     * Fails every not-yet-durable write in this batch (and the one that hit the error), rolls
     * the log back to its durable end, and asks prep to rebuild. Returns true (now failing).
     */
    private boolean failBatch(List<Request> forward, Request current, IOException cause) {
        logFailure(cause);
        long durable = txnLog.lastDurableZxid();
        for (Request request : forward) {
            if (request.txn() != null && request.txn().zxid() > durable) {
                failWrite(request);
            }
        }
        if (current != null) {
            failWrite(current);
            forward.add(current);
        }
        try {
            txnLog.rollbackToDurable();
        } catch (IOException e) {
            log.error("could not roll the log back to its durable end", e);
        }
        resetRequested = true;
        wakePrep();
        return true;
    }

    /**
     * Wakes prep if it is idle, so it resets. Offered, not put: this is the log thread, which prep
     * may be waiting on, and a prep queue too full to take the wake-up is not idle.
     */
    private void wakePrep() {
        outstanding.enter();
        if (!prepQueue.offer(new Request(null, 0, 0, OpCode.PING, null))) {
            outstanding.leave();
        }
    }

    /** A full disk fails every write attempt; say so once, then summarize every 10 s. */
    private void logFailure(IOException cause) {
        long nowNs = System.nanoTime();
        if (failuresNotLogged < 0 || nowNs - lastFailureLogNs >= FAILURE_LOG_INTERVAL_NS) {
            String repeats = failuresNotLogged > 0 ? " (" + failuresNotLogged + " more failures since the last report)" : "";
            log.error("transaction log write failed; failing unpersisted writes and serving reads only until "
                    + "the disk accepts writes again: {}{}", cause.toString(), repeats);
            lastFailureLogNs = nowNs;
            failuresNotLogged = 0;
        } else {
            failuresNotLogged++;
        }
    }

    private void failWrite(Request request) {
        if (request.txn().body() instanceof TxnBody.CloseSession) {
            stateMachine.sessions().clearClosing(request.sessionId);
        }
        request.abandonWrite(ErrorCode.SYSTEM_ERROR);
    }

    private void maybeRollForSnapshot(int appended) {
        if (!snapshots.counted(appended)) {
            return;
        }
        try {
            txnLog.rollSegment();
        } catch (IOException e) {
            log.warn("could not roll the log segment for a snapshot: {}", e.toString());
            return;
        }
        listener.snapshotDue();
    }

    private void applyLoop() {
        List<Request> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(applyQueue.take());
                applyQueue.drainTo(batch);
                for (Request request : batch) {
                    if (request == STOP) {
                        return;
                    }
                    finishAndCount(request);
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void finishAndCount(Request request) {
        try {
            finisher.finish(request);
        } catch (RuntimeException e) {
            log.error("applying {} failed", request, e);
        }
        outstanding.leave();
    }

    /** Lets queued work finish (including the final fsync), then stops the threads. */
    @Override
    public void close() {
        putUninterruptibly(prepQueue, STOP);
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
