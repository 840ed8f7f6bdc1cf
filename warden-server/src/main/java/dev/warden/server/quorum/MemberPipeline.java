package dev.warden.server.quorum;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.server.config.LocalSessionSettings;
import dev.warden.server.pipeline.OutstandingRequests;
import dev.warden.server.pipeline.RequestPipeline;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.Request;
import dev.warden.state.session.SessionTracker;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * An ensemble member's request path, as client connections see it. Every request is first
 * registered with the apply thread (which answers it in its session's order); writes then go
 * to the leader (a leader hands its own to its prep as they are, unencoded) and syncs to the
 * core. Reads are answered from the local tree.
 *
 * <p>With localSessionsEnabled a new session is local: this member opens and closes it without
 * the quorum. Its writes still go to the leader; its first ephemeral create first sends the
 * session's createSession (its upgrade to a global session) when upgrading is enabled, and is
 * refused EPHEMERALONLOCALSESSION when it is not.
 */
final class MemberPipeline implements RequestPipeline {
    private static final int PASSWORD_BYTES = 16;
    private static final byte[] NO_PASSWORD = new byte[0];

    private final long memberId;
    private final MemberApplier applier;
    private final MemberDriver driver;
    private final SessionTracker sessions;
    private final RandomGenerator random;
    private final OutstandingRequests outstanding;
    private final LocalSessionSettings localSessions;
    private final AtomicLong nextSyncToken = new AtomicLong(1);
    private volatile boolean serving;
    private final java.util.function.BooleanSupplier readOnly;

    public MemberPipeline(long memberId, MemberApplier applier, MemberDriver driver, SessionTracker sessions,
                          RandomGenerator random, OutstandingRequests outstanding,
                          java.util.function.BooleanSupplier readOnly, LocalSessionSettings localSessions) {
        this.readOnly = readOnly;
        this.memberId = memberId;
        this.localSessions = localSessions;
        this.applier = applier;
        this.driver = driver;
        this.sessions = sessions;
        this.random = random;
        this.outstanding = outstanding;
    }

    void setServing(boolean serving) {
        this.serving = serving;
    }

    @Override
    public boolean isServing() {
        return serving;
    }

    @Override
    public boolean servesReadOnly() {
        return readOnly.getAsBoolean();
    }

    @Override
    public boolean answersInline(int opcode) {
        return RequestPipeline.isLocalRead(opcode);
    }

    @Override
    public boolean submit(Request request) {
        if (!serving) {
            // The connection is being closed (the member left service); the client reconnects elsewhere.
            request.origin.closeAfterFlush();
            return true;
        }
        boolean belowLimit = outstanding.enter();
        Request accepted = request;
        byte[] password = NO_PASSWORD;
        if (request.opcode == OpCode.CREATE_SESSION && request.sessionId == 0) {
            // This member picks the id (its server id in the high byte) and password.
            password = new byte[PASSWORD_BYTES];
            random.nextBytes(password);
            accepted = Request.createSession(request.origin, sessions.newSessionId(), password,
                    request.sessionTimeoutMs(), request.readOnlyPresent());
            if (localSessions.enabled()) {
                sessions.addLocal(accepted.sessionId, accepted.sessionTimeoutMs(), password);
                applier.localSessionCreated(accepted, password);
                return belowLimit;
            }
        } else if (localSessions.enabled() && sessions.isLocal(request.sessionId)) {
            // A close that follows an upgrade on its way goes the same way, after it: the session
            // is about to be global, and only the quorum can close it then.
            if (request.opcode == OpCode.CLOSE_SESSION && !sessions.isUpgrading(request.sessionId)) {
                applier.localSessionClosing(request);
                return belowLimit;
            }
            if (request.error() == null && EphemeralCreates.in(request)) {
                upgradeFor(request);
            }
        }
        boolean toEnsemble = accepted.error() == null;
        long syncToken = 0;
        if (toEnsemble && accepted.opcode == OpCode.SYNC) {
            syncToken = nextSyncToken.getAndIncrement();
        }
        // Registered with the apply thread before the ensemble can answer; quietly when it will.
        if (toEnsemble && accepted.opcode == OpCode.SYNC) {
            applier.localAwaitingEnsemble(accepted, syncToken);
            driver.sync(syncToken);
        } else if (toEnsemble && Preparer.isWriteOp(accepted.opcode)) {
            applier.localAwaitingEnsemble(accepted, syncToken);
            driver.sendToLeader(forward(accepted, password));
        } else {
            applier.local(accepted, syncToken);
        }
        return belowLimit;
    }

    /**
     * The ephemeral create of a local session: the session goes global first (its createSession
     * reaches the leader before the create, on the same link) or, without upgrading, the create
     * is refused as ZooKeeper refuses it.
     */
    private void upgradeFor(Request request) {
        if (!localSessions.upgradingEnabled()) {
            request.presetError(ErrorCode.EPHEMERAL_ON_LOCAL_SESSION, false);
            return;
        }
        SessionTracker.Session session = sessions.get(request.sessionId);
        if (session != null && sessions.startUpgrade(request.sessionId)) {
            Request upgrade = Request.createSession(request.origin, request.sessionId, session.password(),
                    session.timeoutMs(), request.readOnlyPresent());
            driver.sendToLeader(forward(upgrade, session.password()));
        }
    }

    /** The request as the leader's prep takes it, with the connection's identities as they are now. */
    private AppMessage.Forward forward(Request request, byte[] password) {
        var identities = request.origin.identities();
        Record body = request.opcode == OpCode.CREATE_SESSION ? null : request.body;
        return new AppMessage.Forward(memberId, request.sessionId, request.xid, request.opcode, body,
                identities.address(), List.copyOf(identities.ids()), request.sessionTimeoutMs(), password);
    }

    @Override
    public void sessionAttached(long sessionId) {
        if (sessions.isLocal(sessionId)) {
            return; // the leader does not know it: a local session lives on this member alone
        }
        driver.sendToLeader(new AppMessage.Attach(memberId, sessionId));
    }

    @Override
    public boolean isOverLimit() {
        return outstanding.isOverLimit();
    }

    @Override
    public int outstanding() {
        return outstanding.count();
    }

    @Override
    public void close() {
        serving = false;
    }
}
