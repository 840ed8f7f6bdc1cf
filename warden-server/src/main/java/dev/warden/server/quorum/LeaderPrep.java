package dev.warden.server.quorum;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Id;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ProtocolException;
import dev.warden.protocol.Record;
import dev.warden.server.auth.AuthIdentities;
import dev.warden.server.net.RequestBodies;
import dev.warden.server.pipeline.PendingNode;
import dev.warden.server.pipeline.PendingState;
import dev.warden.server.pipeline.Preparer;
import dev.warden.server.pipeline.Request;
import dev.warden.server.session.SessionTracker;
import dev.warden.server.tree.DataTree;
import dev.warden.server.txn.TxnBody;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's prep thread: validates requests forwarded by members (the leader's own clients'
 * included) and the leader's own housekeeping (expiry, container reaping) against the pending
 * state, and proposes the resulting transactions in zxid order. A request that fails prep is
 * answered to its member with the last zxid prepared before it, so the member can deliver the
 * error after everything the session did earlier. Idle on other members.
 */
public final class LeaderPrep implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LeaderPrep.class);
    private static final int MAX_JUTE_FIELD_BYTES = Integer.MAX_VALUE;

    /** Where the prep thread's output goes: proposals, and refusals to a member. */
    public interface Output {
        void propose(long zxid, byte[] txn);

        void refuse(long memberId, AppMessage.Failed failure);
    }

    private sealed interface Event permits Lead, Follow, Forwarded, Internal, Attached, Stop {
    }

    private record Lead(long nextZxid, long caughtUpZxid, long generation) implements Event {
    }

    private record Follow() implements Event {
    }

    private record Forwarded(AppMessage.Forward forward) implements Event {
    }

    private record Internal(Request request) implements Event {
    }

    private record Attached(AppMessage.Attach attach) implements Event {
    }

    private record Stop() implements Event {
    }

    private final Preparer preparer;
    private final PendingState pending;
    private final SessionTracker sessions;
    private final DataTree tree;
    private final Output output;
    private final BlockingQueue<Event> inbox = new LinkedBlockingQueue<>();
    /** Records prep published for each proposed zxid, until the apply thread applied it. */
    private final Map<Long, List<PendingNode>> pendingByZxid = new ConcurrentHashMap<>();
    /** The member each session last used; requests through another member get SESSIONMOVED. */
    private final Map<Long, Long> ownerBySession = new HashMap<>();
    /**
     * The last zxid this leader proposed, or its history's last before it proposed anything: a
     * refusal is answered once the member has applied it. Not the preparer's counter, which
     * starts the term at counter 0 of the new epoch, a zxid no member ever applies.
     */
    private long lastProposedZxid;
    private final Thread thread;
    private volatile long generation;
    private boolean leading;

    public LeaderPrep(Preparer preparer, PendingState pending, SessionTracker sessions, DataTree tree, Output output,
                      String threadName) {
        this.preparer = preparer;
        this.pending = pending;
        this.sessions = sessions;
        this.tree = tree;
        this.output = output;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /**
     * This member leads from now on: the first proposal gets {@code nextZxid}; prep waits until the
     * tree holds everything up to {@code caughtUpZxid} (the leader's whole log) before validating.
     */
    public void lead(long nextZxid, long caughtUpZxid) {
        long g = ++generation;
        inbox.add(new Lead(nextZxid, caughtUpZxid, g));
    }

    /** This member no longer leads: drop whatever is queued or pending. */
    public void follow() {
        generation++;
        inbox.add(new Follow());
    }

    public void forwarded(AppMessage.Forward forward) {
        inbox.add(new Forwarded(forward));
    }

    public void attached(AppMessage.Attach attach) {
        inbox.add(new Attached(attach));
    }

    /** The leader's own housekeeping request (session expiry, container reaping); no origin. */
    public void internal(Request request) {
        inbox.add(new Internal(request));
    }

    /** The apply thread applied {@code zxid}: its pending records are now in the tree. */
    public void applied(long zxid) {
        List<PendingNode> records = pendingByZxid.remove(zxid);
        if (records != null) {
            pending.applied(records);
        }
    }

    private void run() {
        List<Event> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(inbox.take());
                inbox.drainTo(batch);
                for (Event event : batch) {
                    if (event instanceof Stop) {
                        return;
                    }
                    try {
                        handle(event);
                    } catch (RuntimeException e) {
                        log.error("leader prep: {} failed", event, e);
                    }
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(Event event) throws InterruptedException {
        if (event instanceof Lead lead) {
            startLeading(lead);
        } else if (event instanceof Follow) {
            stopLeading();
        } else if (!leading) {
            return; // the member that sent it will lose its clients when it learns of the change
        } else if (event instanceof Forwarded forwarded) {
            prepareForwarded(forwarded.forward());
        } else if (event instanceof Internal internal) {
            prepare(internal.request(), -1);
        } else if (event instanceof Attached attached) {
            ownerBySession.put(attached.attach().sessionId(), attached.attach().memberId());
        }
    }

    private void startLeading(Lead lead) throws InterruptedException {
        stopLeading();
        // Prep validates against the tree: it must hold the leader's whole history first.
        while (tree.lastAppliedZxid() < lead.caughtUpZxid()) {
            if (generation != lead.generation()) {
                return;
            }
            Thread.sleep(1);
        }
        preparer.resetTo(lead.nextZxid() - 1);
        lastProposedZxid = lead.caughtUpZxid();
        leading = true;
        log.info("leading: first zxid 0x{}", Long.toHexString(lead.nextZxid()));
    }

    private void stopLeading() {
        leading = false;
        pending.clear();
        pendingByZxid.clear();
        ownerBySession.clear();
    }

    private void prepareForwarded(AppMessage.Forward forward) {
        long sessionId = forward.sessionId();
        if (forward.opcode() != OpCode.CREATE_SESSION) {
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
            Record body;
            try {
                byte[] bytes = forward.body();
                body = RequestBodies.decode(forward.opcode(), new JuteReader(bytes, 0, bytes.length, MAX_JUTE_FIELD_BYTES));
            } catch (ProtocolException e) {
                refuse(forward, ErrorCode.MARSHALLING_ERROR, List.of());
                return;
            }
            request = new Request(origin, sessionId, forward.xid(), forward.opcode(), body);
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
        if (!request.pendingRecords().isEmpty()) {
            pendingByZxid.put(zxid, request.pendingRecords());
        }
        lastProposedZxid = zxid;
        output.propose(zxid, request.txn().encode());
    }

    private void refuse(AppMessage.Forward forward, ErrorCode error, List<Integer> multiErrors) {
        output.refuse(forward.memberId(), new AppMessage.Failed(forward.sessionId(), forward.xid(),
                lastProposedZxid, error.code(), multiErrors));
    }

    @Override
    public void close() {
        generation++;
        inbox.add(new Stop());
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
