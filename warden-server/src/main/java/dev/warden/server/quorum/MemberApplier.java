package dev.warden.server.quorum;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.Stat;
import dev.warden.server.pipeline.OutstandingRequests;
import dev.warden.server.pipeline.SnapshotSchedule;
import dev.warden.server.threads.ServerThreads;
import dev.warden.state.pipeline.Origin;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Reply;
import dev.warden.state.pipeline.ReplyHeaders;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.WriteReplies;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's apply thread. It applies committed transactions to the tree in zxid order (which
 * fires watches), and answers the requests of sessions connected here in each session's request
 * order: a write is answered when its transaction is applied here (or when the leader's refusal
 * arrives, once everything the leader prepared before it is applied), a sync when the core
 * reports it done, and a read once everything before it in the session was answered.
 *
 * <p>Everything reaches this thread through one queue, so a request is always registered before
 * the commit or refusal that completes it can arrive.
 *
 * <p>A write or sync that goes to the ensemble is queued <em>quietly</em>: it does not wake this
 * thread, because there is nothing to answer until its commit, refusal or sync result arrives,
 * and that event, queued behind it, wakes the thread and finds it registered. Waking the thread
 * only to file the request cost every write through this member one more thread wake-up
 * (measured: 2.14 wake-ups and 23 µs of this thread's CPU per write before, 1.05 and 18 µs
 * after). Every other event wakes the thread.
 *
 * <p>The queue holds at most {@link #INBOX_CAPACITY} events (a committed batch is one event):
 * a thread that finds it full waits until the apply thread takes what is queued. A connection's
 * event loop then reads none of its connections (they were paused at
 * {@code globalOutstandingLimit} before), and the driver stops taking peer traffic until this
 * member's apply catches up; nothing is dropped. The apply thread never waits on the other
 * threads, so they always get their room back. Only stopping takes no room, so a member whose
 * apply thread died still closes.
 */
final class MemberApplier implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MemberApplier.class);

    private sealed interface Event permits Local, Committed, Refused, SyncDone, Task, Reset, Stop {
    }

    private record Local(Request request, long syncToken) implements Event {
    }

    private record Committed(CommittedEntries entries) implements Event {
    }

    private record Refused(AppMessage.Failed failure) implements Event {
    }

    private record SyncDone(long token, boolean ok) implements Event {
    }

    private record Task(Runnable body, CompletableFuture<Void> done) implements Event {
    }

    private record Reset() implements Event {
    }

    private record Stop() implements Event {
    }

    private final StateMachine stateMachine;
    private final ReadProcessor reads;
    private final ApplyHooks hooks;
    private final OutstandingRequests outstanding;
    private final SnapshotSchedule snapshots;
    /** Events the inbox holds at most, when no other number is given. */
    public static final int INBOX_CAPACITY = 65_536;
    private final ApplyInbox<Event> inbox;
    private final Map<Long, ArrayDeque<LocalRequest>> bySession = new HashMap<>();
    private final Map<Long, LocalRequest> syncsByToken = new HashMap<>();
    private final PriorityQueue<AppMessage.Failed> deferred =
            new PriorityQueue<>(Comparator.comparingLong(AppMessage.Failed::afterZxid));
    private final Thread thread;

    public MemberApplier(StateMachine stateMachine, ReadProcessor reads, ApplyHooks hooks,
                         OutstandingRequests outstanding, int snapCount, RandomGenerator random, String threadName) {
        this(stateMachine, reads, hooks, outstanding, snapCount, random, threadName, INBOX_CAPACITY);
    }

    /** As the public constructor, with the inbox holding at most {@code inboxCapacity} events. */
    MemberApplier(StateMachine stateMachine, ReadProcessor reads, ApplyHooks hooks, OutstandingRequests outstanding,
                  int snapCount, RandomGenerator random, String threadName, int inboxCapacity) {
        this.stateMachine = stateMachine;
        this.reads = reads;
        this.hooks = hooks;
        this.outstanding = outstanding;
        this.snapshots = new SnapshotSchedule(snapCount, random);
        this.thread = ServerThreads.newThread(threadName, this::run);
        this.inbox = new ApplyInbox<>(inboxCapacity, thread);
    }

    /** Events waiting for the apply thread (committed batches, local requests, syncs); any thread. */
    public int queueDepth() {
        return inbox.size();
    }

    public void start() {
        thread.start();
    }

    // ---- queued from other threads ------------------------------------------------------------

    /** A request of a local session; {@code syncToken} identifies a sync, else 0. */
    public void local(Request request, long syncToken) {
        enqueue(new Local(request, syncToken), true);
    }

    /**
     * A local write or sync that the ensemble will answer: queued without waking the thread, since
     * the commit, refusal or sync result that completes it arrives after it and wakes it. A
     * member that stops serving queues a {@link #reset}, which wakes it too.
     */
    public void localAwaitingEnsemble(Request request, long syncToken) {
        enqueue(new Local(request, syncToken), false);
    }

    public void committed(CommittedEntries entries) {
        enqueue(new Committed(entries), true);
    }

    public void refused(AppMessage.Failed failure) {
        enqueue(new Refused(failure), true);
    }

    public void syncDone(long token, boolean ok) {
        enqueue(new SyncDone(token, ok), true);
    }

    /**
     * A local session opened on this member without the quorum (localSessionsEnabled): its
     * handshake answer goes out in order with whatever the apply thread answers before it.
     */
    public void localSessionCreated(Request created, byte[] password) {
        run(() -> {
            LocalRequest pending = new LocalRequest(created);
            pending.sessionCreated = true;
            pending.timeoutMs = created.sessionTimeoutMs();
            pending.password = password.clone();
            pending.done = true;
            queue(pending);
        });
    }

    /**
     * A local session's closeSession: answered after the session's earlier requests, then the
     * session is forgotten here and its connection closed; nothing goes to the quorum.
     */
    public void localSessionClosing(Request close) {
        run(() -> {
            LocalRequest pending = new LocalRequest(close);
            pending.complete(ErrorCode.OK, null);
            pending.endsLocalSession = true;
            queue(pending);
        });
    }

    /** A local session expired here: its queued requests get no answers and its connection is closed. */
    public void localSessionExpired(long sessionId) {
        run(() -> endLocalSession(sessionId));
    }

    /** Forgets every local request (their connections were closed: the member stopped serving). */
    public void reset() {
        enqueue(new Reset(), true);
    }

    /** Runs {@code body} on the apply thread after everything queued before it; does not wait. */
    public void run(Runnable body) {
        enqueue(new Task(body, new CompletableFuture<>()), true);
    }

    /** Runs {@code body} on the apply thread after everything queued before it, and waits for it. */
    public void runAndWait(Runnable body) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        enqueue(new Task(body, done), true);
        done.join();
    }

    /** Adds the event; only stopping takes no room, and only {@code wake} unparks a parked thread. */
    private void enqueue(Event event, boolean wake) {
        inbox.add(event, !(event instanceof Stop), wake);
    }

    // ---- the apply thread ---------------------------------------------------------------------

    private void run() {
        List<Event> batch = new ArrayList<>();
        try {
            while (true) {
                inbox.takeAll(batch, event -> !(event instanceof Stop));
                for (Event event : batch) {
                    if (event instanceof Stop) {
                        return;
                    }
                    try {
                        handle(event);
                    } catch (RuntimeException e) {
                        log.error("apply thread: handling {} failed", event.getClass().getSimpleName(), e);
                        if (event instanceof Task task) {
                            task.done().completeExceptionally(e);
                        }
                    }
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Error e) {
            log.error("apply thread: failed; nothing more will be applied", e);
            hooks.applyFailed(e);
            throw e;
        }
    }

    private void handle(Event event) {
        if (event instanceof Local local) {
            addLocal(local);
        } else if (event instanceof Committed committed) {
            CommittedEntries entries = committed.entries();
            for (int i = 0; i < entries.size(); i++) {
                apply(entries.txn(i));
                entries.applied(i);
            }
            deliverDeferred();
        } else if (event instanceof Refused refused) {
            if (refused.failure().afterZxid() <= stateMachine.tree().lastAppliedZxid()) {
                deliver(refused.failure());
            } else {
                deferred.add(refused.failure());
            }
        } else if (event instanceof SyncDone sync) {
            LocalRequest pending = syncsByToken.remove(sync.token());
            if (pending != null) {
                if (sync.ok()) {
                    Reply reply = reads.process(pending.request);
                    pending.complete(reply.error(), reply.body());
                } else {
                    pending.closeInstead = true;
                    pending.done = true;
                }
                drain(pending.request.sessionId);
            }
        } else if (event instanceof Task task) {
            task.body().run();
            task.done().complete(null);
        } else if (event instanceof Reset) {
            dropAll();
        }
    }

    private void addLocal(Local local) {
        LocalRequest pending = new LocalRequest(local.request());
        if (local.request().opcode == OpCode.SYNC && pending.awaitsEnsemble) {
            syncsByToken.put(local.syncToken(), pending);
        }
        queue(pending);
    }

    private void queue(LocalRequest pending) {
        bySession.computeIfAbsent(pending.request.sessionId, id -> new ArrayDeque<>()).add(pending);
        drain(pending.request.sessionId);
    }

    private void endLocalSession(long sessionId) {
        forgetSession(sessionId);
        stateMachine.sessions().remove(sessionId);
        hooks.sessionClosed(sessionId);
    }

    private void apply(Txn txn) {
        if (txn.zxid() <= stateMachine.tree().lastAppliedZxid()) {
            return; // already in the state (replayed at recovery or part of a snapshot)
        }
        List<Stat> stats = stateMachine.apply(txn);
        hooks.applied(txn.zxid());
        if (txn.body() instanceof TxnBody.Restore) {
            hooks.stateRestored(); // before the restore is answered: old connections go first
        }
        ArrayDeque<LocalRequest> queue = bySession.get(txn.sessionId());
        if (queue != null) {
            for (LocalRequest pending : queue) {
                // A createSession may be a local session's upgrade, which no request of it awaits.
                boolean creates = txn.body() instanceof TxnBody.CreateSession;
                if (!pending.done && pending.isWrite() && pending.request.xid == txn.cxid()
                        && creates == (pending.request.opcode == OpCode.CREATE_SESSION)) {
                    if (txn.body() instanceof TxnBody.CreateSession created) {
                        pending.sessionCreated = true;
                        pending.timeoutMs = created.timeoutMs();
                        pending.password = created.password();
                        pending.done = true;
                    } else {
                        pending.complete(ErrorCode.OK, WriteReplies.body(pending.request, txn, stats));
                    }
                    break;
                }
            }
            drain(txn.sessionId());
        }
        if (txn.body() instanceof TxnBody.CloseSession) {
            hooks.sessionClosed(txn.sessionId());
            forgetSession(txn.sessionId());
        }
        if (snapshots.counted(1)) {
            hooks.snapshotDue();
        }
    }

    private void deliverDeferred() {
        long applied = stateMachine.tree().lastAppliedZxid();
        while (!deferred.isEmpty() && deferred.peek().afterZxid() <= applied) {
            deliver(deferred.poll());
        }
    }

    private void deliver(AppMessage.Failed failure) {
        ArrayDeque<LocalRequest> queue = bySession.get(failure.sessionId());
        if (queue == null) {
            return;
        }
        for (LocalRequest pending : queue) {
            if (!pending.done && pending.isWrite() && pending.request.xid == failure.xid()) {
                ErrorCode code = ErrorCode.of(failure.errorCode());
                if (code == ErrorCode.SESSION_MOVED) {
                    pending.closeInstead = true;
                    pending.done = true;
                } else if (!failure.multiErrors().isEmpty()) {
                    List<ErrorCode> codes = new ArrayList<>();
                    for (int each : failure.multiErrors()) {
                        codes.add(ErrorCode.of(each));
                    }
                    pending.complete(ErrorCode.OK, WriteReplies.failedMulti(codes));
                } else {
                    pending.complete(code, null);
                }
                break;
            }
        }
        drain(failure.sessionId());
    }

    /** Answers the session's requests from the head of its queue for as long as they are ready. */
    private void drain(long sessionId) {
        ArrayDeque<LocalRequest> queue = bySession.get(sessionId);
        if (queue == null) {
            return;
        }
        while (!queue.isEmpty()) {
            LocalRequest head = queue.peek();
            if (!head.done && !head.awaitsEnsemble) {
                Reply reply = stateMachine.sessions().isActive(sessionId)
                        ? reads.process(head.request)
                        : Reply.error(ErrorCode.SESSION_EXPIRED);
                head.complete(reply.error(), reply.body());
            }
            if (!head.done) {
                return;
            }
            queue.poll();
            answer(head);
            if (head.endsLocalSession) {
                endLocalSession(sessionId);
                return;
            }
        }
        bySession.remove(sessionId);
    }

    private void answer(LocalRequest pending) {
        Request request = pending.request;
        Origin origin = request.origin;
        if (pending.closeInstead) {
            origin.closeAfterFlush();
        } else if (request.opcode == OpCode.CREATE_SESSION) {
            if (pending.sessionCreated) {
                origin.sessionCreated(request.sessionId, pending.timeoutMs, pending.password);
            } else {
                origin.send(null, ReplyHeaders.noSession(request.readOnlyPresent()));
                origin.closeAfterFlush();
            }
        } else {
            ErrorCode error = pending.error;
            Record body = error == ErrorCode.OK ? pending.body : null;
            origin.send(ReplyHeaders.of(request, error, stateMachine.tree().lastAppliedZxid()), body);
            if (request.closeAfterReply()) {
                origin.closeAfterFlush();
            }
        }
        origin.requestDone(request);
        requestFinished();
    }

    private void requestFinished() {
        outstanding.leave();
    }

    /** A closed session's queued requests get no answers: its connection is being closed. */
    private void forgetSession(long sessionId) {
        ArrayDeque<LocalRequest> queue = bySession.remove(sessionId);
        if (queue != null) {
            for (LocalRequest pending : queue) {
                pending.request.origin.requestDone(pending.request);
                requestFinished();
            }
        }
        syncsByToken.values().removeIf(pending -> pending.request.sessionId == sessionId);
    }

    private void dropAll() {
        for (Long sessionId : new ArrayList<>(bySession.keySet())) {
            forgetSession(sessionId);
        }
        syncsByToken.clear();
        deferred.clear();
    }

    @Override
    public void close() {
        enqueue(new Stop(), true);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
