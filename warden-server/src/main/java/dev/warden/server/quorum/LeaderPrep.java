package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.Request;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.TxnBody;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's prep step: validates requests forwarded by members (the leader's own clients'
 * included) and the leader's own housekeeping (expiry, container reaping) against the pending
 * state, and proposes the resulting transactions in zxid order. A request that fails prep is
 * answered to its member with the last zxid prepared before it, so the member can deliver the
 * error after everything the session did earlier. Idle on other members.
 *
 * <p>Everything here runs on the member's driver thread, inside its duty cycle: a forwarded
 * request arrives there, is prepared there and its proposal is fed to the core in the next
 * cycle of the same thread. An earlier design gave prep a thread of its own, which cost every
 * write two thread hand-offs (driver → prep → driver), about 40 µs each on the development VM
 * (docs/PERFORMANCE.md). Only {@link #applied} is called from another thread (the apply thread).
 */
final class LeaderPrep {
    private static final Logger log = LoggerFactory.getLogger(LeaderPrep.class);

    /** Where prep's output goes: proposals, and refusals to a member. Called on the driver thread. */
    public interface Output {
        void propose(long zxid, byte[] txn);

        void refuse(long memberId, AppMessage.Failed failure);

        /** Runs {@code body} on the driver thread soon (from any thread). */
        void onDriverThread(Runnable body);
    }

    /**
     * Decides whether a reconfig must wait before it is prepared (for members it adds that this
     * leader cannot reach yet; {@link JoinerReach}), and when the wait is over.
     */
    public interface ReconfigGate {
        ReconfigGate NONE = new ReconfigGate() {
            @Override
            public boolean mustWait(ReconfigRequest request, AuthIdentities who, long maxWaitMs) {
                return false;
            }

            @Override
            public boolean waitOver(long nowMs) {
                return true;
            }
        };

        /**
         * True if {@code request} must wait; the gate starts whatever ends the wait, which must
         * end within {@code maxWaitMs} (the session's pings are answered only after it).
         */
        boolean mustWait(ReconfigRequest request, AuthIdentities who, long maxWaitMs);

        /** True once the waiting request may be prepared. */
        boolean waitOver(long nowMs);

        /** The request that waited has been prepared or refused. */
        default void prepared() {
        }

        /** Leadership ended or began: nothing waits any more. */
        default void reset() {
        }
    }

    private final Preparer preparer;
    private final ReconfigGate reconfigGate;
    private final PendingState pending;
    private final SessionTracker sessions;
    private final DataTree tree;
    private final Output output;
    /**
     * What prep kept for each transaction it proposed, oldest first, until the core commits it
     * ({@link #committed}). Driver thread only: it reaches the apply thread with the commit.
     */
    private final ArrayDeque<CommittedEntries.Prepared> proposed = new ArrayDeque<>();
    /** The member each session last used; requests through another member get SESSIONMOVED. */
    private final Map<Long, Long> ownerBySession = new HashMap<>();
    /**
     * The last zxid this leader proposed, or its history's last before it proposed anything: a
     * refusal is answered once the member has applied it. Not the preparer's counter, which
     * starts the term at counter 0 of the new epoch, a zxid no member ever applies.
     */
    private long lastProposedZxid;
    private boolean leading;
    /** Set between {@link #lead} and the moment the tree holds the leader's whole log. */
    private long firstZxidOfTerm = -1;
    /**
     * While {@link #firstZxidOfTerm} is set: the zxid the tree must reach before prep may
     * validate (the end of the leader's log); else -1. Read by the apply thread.
     */
    private volatile long awaitedZxid = -1;
    /** Work that arrived while waiting for the tree, in arrival order. */
    private final List<Runnable> heldBack = new ArrayList<>();
    /**
     * While a reconfig waits at the {@link ReconfigGate}: it (first), then every later request of
     * its session and every later reconfig, in arrival order. Other requests go on.
     */
    private final List<AppMessage.Forward> waitingAtGate = new ArrayList<>();
    /** The sessions of {@link #waitingAtGate}: their requests keep their order behind it. */
    private final java.util.Set<Long> sessionsAtGate = new java.util.HashSet<>();

    public LeaderPrep(Preparer preparer, PendingState pending, SessionTracker sessions, DataTree tree, Output output) {
        this(preparer, pending, sessions, tree, output, ReconfigGate.NONE);
    }

    public LeaderPrep(Preparer preparer, PendingState pending, SessionTracker sessions, DataTree tree, Output output,
                      ReconfigGate reconfigGate) {
        this.reconfigGate = reconfigGate;
        this.preparer = preparer;
        this.pending = pending;
        this.sessions = sessions;
        this.tree = tree;
        this.output = output;
    }

    /**
     * This member leads from now on: the first proposal gets {@code nextZxid}; prep validates
     * nothing until the tree holds everything up to {@code caughtUpZxid} (the leader's whole log),
     * and holds back what arrives meanwhile.
     */
    public void lead(long nextZxid, long caughtUpZxid) {
        stopLeading();
        firstZxidOfTerm = nextZxid;
        lastProposedZxid = caughtUpZxid;
        awaitedZxid = caughtUpZxid;
        resumeIfCaughtUp();
    }

    /** This member no longer leads: drop whatever is held back or pending. */
    public void follow() {
        stopLeading();
    }

    public void forwarded(AppMessage.Forward forward) {
        whenLeading(() -> prepareForwarded(forward));
    }

    /** A forward whose body did not decode: refused in its place among the member's requests. */
    public void unreadable(AppMessage.UnreadableForward forward) {
        whenLeading(() -> refuse(forward.memberId(), forward.sessionId(), forward.xid(), ErrorCode.MARSHALLING_ERROR,
                List.of()));
    }

    public void attached(AppMessage.Attach attach) {
        whenLeading(() -> ownerBySession.put(attach.sessionId(), attach.memberId()));
    }

    /** The leader's own housekeeping request (session expiry, container reaping); no origin. */
    public void internal(Request request) {
        whenLeading(() -> prepare(request, -1));
    }

    /**
     * Driver thread: the core committed {@code entries}; each one this leader proposed leaves
     * {@link #proposed} with them. A proposal older than a committed entry was never logged (the
     * core refused it) and is dropped.
     */
    CommittedEntries committed(List<Entry> entries) {
        if (proposed.isEmpty()) {
            return CommittedEntries.decoded(entries);
        }
        CommittedEntries.Prepared[] mine = new CommittedEntries.Prepared[entries.size()];
        for (int i = 0; i < mine.length; i++) {
            long zxid = entries.get(i).zxid();
            while (!proposed.isEmpty() && proposed.peek().txn().zxid() < zxid) {
                proposed.poll();
            }
            if (!proposed.isEmpty() && proposed.peek().txn().zxid() == zxid) {
                mine[i] = proposed.poll();
            }
        }
        return new CommittedEntries(entries, mine, pending);
    }

    /** Apply thread: {@code zxid} is applied; prep waiting for the tree to reach its log may start. */
    public void applied(long zxid) {
        long awaited = awaitedZxid;
        if (awaited >= 0 && zxid >= awaited) {
            output.onDriverThread(this::resumeIfCaughtUp);
        }
    }

    /** Starts validating once the tree holds the leader's whole log; runs what was held back. */
    void resumeIfCaughtUp() {
        if (firstZxidOfTerm < 0 || tree.lastAppliedZxid() < awaitedZxid) {
            return;
        }
        preparer.resetTo(firstZxidOfTerm - 1);
        log.info("leading: first zxid 0x{}", Long.toHexString(firstZxidOfTerm));
        firstZxidOfTerm = -1;
        awaitedZxid = -1;
        leading = true;
        List<Runnable> held = new ArrayList<>(heldBack);
        heldBack.clear();
        held.forEach(this::safely);
    }

    private void whenLeading(Runnable work) {
        if (leading) {
            safely(work);
        } else if (firstZxidOfTerm >= 0) {
            heldBack.add(work);
            resumeIfCaughtUp();
        }
        // else: not leading; the member that sent it will lose its clients when it learns of the change
    }

    private void safely(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            log.error("leader prep failed", e);
        }
    }

    private void stopLeading() {
        waitingAtGate.clear();
        sessionsAtGate.clear();
        reconfigGate.reset();
        leading = false;
        firstZxidOfTerm = -1;
        awaitedZxid = -1;
        heldBack.clear();
        pending.clear();
        proposed.clear();
        ownerBySession.clear();
    }

    /**
     * Driver thread, every cycle: once the waiting reconfig may go, it is prepared, then what
     * waited behind it (a later reconfig may wait again).
     */
    public void releaseWaiting(long nowMs) {
        if (waitingAtGate.isEmpty() || !leading || !reconfigGate.waitOver(nowMs)) {
            return;
        }
        List<AppMessage.Forward> released = new ArrayList<>(waitingAtGate);
        waitingAtGate.clear();
        sessionsAtGate.clear();
        safely(() -> prepareForwarded(released.get(0), true));
        reconfigGate.prepared();
        for (AppMessage.Forward forward : released.subList(1, released.size())) {
            safely(() -> prepareForwarded(forward));
        }
    }

    private void prepareForwarded(AppMessage.Forward forward) {
        prepareForwarded(forward, false);
    }

    private void prepareForwarded(AppMessage.Forward forward, boolean passedGate) {
        if (!passedGate && !waitingAtGate.isEmpty()
                && (sessionsAtGate.contains(forward.sessionId()) || forward.opcode() == OpCode.RECONFIG)) {
            waitingAtGate.add(forward);
            sessionsAtGate.add(forward.sessionId());
            return;
        }
        long sessionId = forward.sessionId();
        // Owners are kept for sessions this leader knows; an unknown one is either expired (prep
        // says so) or another member's local session, which never moves and is never closed here.
        if (forward.opcode() != OpCode.CREATE_SESSION && sessions.get(sessionId) != null) {
            Long owner = ownerBySession.putIfAbsent(sessionId, forward.memberId());
            if (owner != null && owner != forward.memberId()) {
                refuse(forward, ErrorCode.SESSION_MOVED, List.of());
                return;
            }
        }
        AuthIdentities identities = new AuthIdentities(forward.address());
        for (Id id : forward.identities()) {
            identities.add(id);
        }
        RemoteOrigin origin = new RemoteOrigin(identities);
        Request request;
        if (forward.opcode() == OpCode.CREATE_SESSION) {
            request = Request.createSession(origin, sessionId, forward.password(), forward.timeoutMs(), true);
        } else {
            request = new Request(origin, sessionId, forward.xid(), forward.opcode(), forward.body());
            if (!passedGate && forward.opcode() == OpCode.RECONFIG
                    && mustWaitAtGate((ReconfigRequest) forward.body(), origin, sessionId)) {
                waitingAtGate.add(forward);
                sessionsAtGate.add(sessionId);
                return;
            }
        }
        prepare(request, forward.memberId());
        if (request.txn() == null) {
            List<Integer> multi = new ArrayList<>();
            if (request.multiErrors() != null) {
                request.multiErrors().forEach(code -> multi.add(code.code()));
            }
            ErrorCode error = request.error() != null ? request.error() : ErrorCode.OK;
            refuse(forward, error, multi);
        }
    }

    /**
     * Asks the gate; the wait it may take is a third of the session's timeout, under the
     * client's read timeout (two thirds of it), since the session's pings wait behind the request.
     */
    private boolean mustWaitAtGate(ReconfigRequest request, RemoteOrigin origin, long sessionId) {
        AuthIdentities who = origin.identities();
        if (preparer.skipsAclChecks()) {
            who.skipAclChecks();
        }
        SessionTracker.Session session = sessions.get(sessionId);
        if (session == null) {
            return false; // prep answers it (SESSIONEXPIRED)
        }
        return reconfigGate.mustWait(request, who, session.timeoutMs() / 3);
    }

    /** Prepares and, if it produced a transaction, proposes it. */
    private void prepare(Request request, long memberId) {
        try {
            preparer.prepare(request);
        } catch (RuntimeException e) {
            log.error("prep failed for {}", request, e);
            request.presetError(ErrorCode.SYSTEM_ERROR, false);
            return;
        }
        if (request.txn() == null) {
            return;
        }
        if (request.txn().body() instanceof TxnBody.CloseSession) {
            ownerBySession.remove(request.txn().sessionId());
        } else if (request.txn().body() instanceof TxnBody.CreateSession created) {
            // Later requests of the session may reach prep before the leader applied this one.
            sessions.add(request.txn().sessionId(), created.timeoutMs(), created.password());
            ownerBySession.put(request.txn().sessionId(), memberId);
        }
        long zxid = request.txn().zxid();
        proposed.add(new CommittedEntries.Prepared(request.txn(), request.pendingRecords()));
        lastProposedZxid = zxid;
        output.propose(zxid, request.txn().encode());
    }

    private void refuse(AppMessage.Forward forward, ErrorCode error, List<Integer> multiErrors) {
        refuse(forward.memberId(), forward.sessionId(), forward.xid(), error, multiErrors);
    }

    private void refuse(long memberId, long sessionId, int xid, ErrorCode error, List<Integer> multiErrors) {
        output.refuse(memberId, new AppMessage.Failed(sessionId, xid, lastProposedZxid, error.code(), multiErrors));
    }
}
