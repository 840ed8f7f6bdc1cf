package dev.warden.state.pipeline;

import dev.warden.protocol.CheckVersionRequest;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateTTLRequest;
import dev.warden.protocol.DeleteContainerRequest;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.protocol.Record;
import dev.warden.protocol.SetACLRequest;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.auth.AclChecker;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.common.Clock;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.tree.NodeOwner;
import dev.warden.state.tree.PathValidator;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The prep stage: checks a write against the pending state in ZooKeeper's order of checks
 * (WIRE-PROTOCOL.md §4.6) and turns it into an idempotent transaction with the next zxid, or
 * into an error. Runs on one thread; reads pass through untouched.
 */
public final class Preparer {
    private static final int PASSWORD_BYTES = 16;
    private static final long MAX_COUNTER = 0xffff_ffffL;
    private final PendingState pending;
    private final SessionTracker sessions;
    private final Clock clock;
    private final RandomGenerator random;
    private final boolean ttlEnabled;
    private long lastZxid;
    /** How reconfig requests are prepared: refused on a standalone server until a member sets its own. */
    private Reconfigurer reconfigurer = Reconfigurer.standalone(false);
    /** The last counter of an epoch; the real limit except in tests that reach an epoch's end fast. */
    private long maxCounter = MAX_COUNTER;
    private volatile QuotaGuard quotaGuard = QuotaGuard.NONE;
    private volatile boolean skipAclChecks;
    /** localSessionsEnabled on an ensemble member: the server id in this member's session ids, else -1. */
    private volatile long localSessionsOfMember = -1;
    private final RestorePrep restores;

    public Preparer(PendingState pending, SessionTracker sessions, Clock clock, RandomGenerator random,
                    boolean ttlEnabled, long lastZxid) {
        this.pending = pending;
        this.sessions = sessions;
        this.clock = clock;
        this.random = random;
        this.ttlEnabled = ttlEnabled;
        this.lastZxid = lastZxid;
        this.restores = new RestorePrep(pending);
    }

    /**
     * Ends every epoch after {@code counter}: must equal the consensus core's limit, which only
     * tests lower (to reach an epoch change after a few writes).
     */
    public void limitCounter(long counter) {
        if (counter < 1 || counter > MAX_COUNTER) {
            throw new IllegalArgumentException("counter limit out of range: " + counter);
        }
        maxCounter = counter;
    }

    /**
     * skipACL=yes: every write passes its ACL checks, whoever sends it (requests a follower
     * forwards too); set before the first request is prepared.
     */
    public void skipAclChecks() {
        skipAclChecks = true;
    }

    /** True with skipACL=yes. */
    public boolean skipsAclChecks() {
        return skipAclChecks;
    }

    /**
     * localSessionsEnabled on an ensemble member whose id is {@code memberId}: a request of a
     * session this leader does not know is taken as one of another member's local sessions when
     * its id was not made here (the member's id is a session id's top byte), as ZooKeeper's
     * leader takes it; such a session may not own an ephemeral node. Set before the first
     * request is prepared.
     */
    public void acceptLocalSessions(long memberId) {
        localSessionsOfMember = memberId;
    }

    /** enforceQuota: set before the first request is prepared. */
    public void enforceQuotas(QuotaGuard guard) {
        quotaGuard = guard;
    }

    public long lastZxid() {
        return lastZxid;
    }

    /** Who prepares reconfig requests (an ensemble member's leader side, or a standalone refusal). */
    public void reconfigurer(Reconfigurer value) {
        reconfigurer = value;
    }

    /** Rewinds the zxid counter after prepared transactions were discarded (log failure). */
    public void resetTo(long zxid) {
        lastZxid = zxid;
        restores.resetTo(zxid);
    }

    /** True for opcodes that produce a transaction. */
    public static boolean isWriteOp(int opcode) {
        return switch (opcode) {
            case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER, OpCode.CREATE_TTL, OpCode.DELETE,
                 OpCode.DELETE_CONTAINER, OpCode.SET_DATA, OpCode.SET_ACL, OpCode.MULTI, OpCode.CLOSE_SESSION,
                 OpCode.CREATE_SESSION, OpCode.RECONFIG, RestoreRequest.OPCODE -> true;
            default -> false;
        };
    }

    public void prepare(Request request) {
        if (!isWriteOp(request.opcode) || request.error != null || restores.refusedMeanwhile(request)) {
            return;
        }
        try {
            switch (request.opcode) {
                case RestoreRequest.OPCODE ->
                        restores.prepared(commit(request, restores.prepare(request, lastZxid), pending.overlay()));
                case OpCode.CREATE_SESSION -> prepareCreateSession(request);
                case OpCode.CLOSE_SESSION -> prepareCloseSession(request);
                case OpCode.MULTI -> prepareMulti(request);
                case OpCode.RECONFIG -> {
                    checkSession(request);
                    AuthIdentities who = request.origin == null ? null : request.origin.identities();
                    if (skipAclChecks && who != null) {
                        who.skipAclChecks(); // as ZooKeeper: skipACL skips /zookeeper/config's ACL too
                    }
                    TxnBody.Reconfig body = reconfigurer.prepare((ReconfigRequest) request.body, who);
                    commit(request, body, pending.overlay());
                    reconfigurer.prepared(request.txn.zxid());
                }
                case OpCode.DELETE_CONTAINER -> {
                    PendingState.Overlay overlay = pending.overlay();
                    commit(request, deleteContainer((DeleteContainerRequest) request.body, overlay), overlay);
                }
                default -> {
                    checkSession(request);
                    PendingState.Overlay overlay = pending.overlay();
                    TxnBody body = prepareOp(request.opcode, request.body, request, overlay);
                    commit(request, body, overlay);
                }
            }
        } catch (PrepException e) {
            request.error = e.code();
        }
    }

    /**
     * The zxid after lastZxid. When the low 32 bits (the counter within an epoch) are used up,
     * the next zxid is counter 1 of the following epoch: an ensemble leader moves there without
     * an election, and a standalone server simply carries on.
     */
    private long nextZxid() {
        if ((lastZxid & MAX_COUNTER) >= maxCounter) {
            lastZxid = ((lastZxid >>> 32) + 1) << 32 | 1;
        } else {
            lastZxid++;
        }
        return lastZxid;
    }

    private long commit(Request request, TxnBody body, PendingState.Overlay overlay) {
        long zxid = nextZxid();
        request.txn = new Txn(request.sessionId, request.xid, zxid, clock.wallTimeMs(), body);
        request.pendingRecords = overlay.publish(zxid);
        return zxid;
    }

    private void checkSession(Request request) throws PrepException {
        if (request.origin == null) {
            return;
        }
        SessionTracker.Session session = sessions.get(request.sessionId);
        if (session == null) {
            if (isOtherMembersLocalSession(request.sessionId)) {
                return;
            }
            throw new PrepException(ErrorCode.SESSION_EXPIRED);
        }
        if (session.isClosing()) {
            throw new PrepException(ErrorCode.SESSION_EXPIRED);
        }
    }

    private boolean isOtherMembersLocalSession(long sessionId) {
        long member = localSessionsOfMember;
        return member >= 0 && (sessionId >>> 56) != (member & 0xff);
    }

    /** An ephemeral node needs a global session: a local one is upgraded (or refused) before it gets here. */
    private void checkEphemeralOwner(Request request) throws PrepException {
        if (localSessionsOfMember < 0 || request.origin == null) {
            return;
        }
        SessionTracker.Session session = sessions.get(request.sessionId);
        if (session == null || session.isLocal()) {
            throw new PrepException(ErrorCode.EPHEMERAL_ON_LOCAL_SESSION);
        }
    }

    private void prepareCreateSession(Request request) {
        byte[] password;
        long sessionId;
        if (request.presetPassword != null) {
            password = request.presetPassword;
            sessionId = request.sessionId;
        } else {
            password = new byte[PASSWORD_BYTES];
            random.nextBytes(password);
            sessionId = sessions.newSessionId();
        }
        long zxid = nextZxid();
        request.txn = new Txn(sessionId, 0, zxid, clock.wallTimeMs(),
                new TxnBody.CreateSession(request.sessionTimeoutMs, password));
    }

    private void prepareCloseSession(Request request) {
        sessions.markClosing(request.sessionId);
        PendingState.Overlay overlay = pending.overlay();
        List<String> ephemerals = pending.ephemeralsOf(request.sessionId);
        for (String path : ephemerals) {
            removeInOverlay(overlay, path);
        }
        commit(request, new TxnBody.CloseSession(ephemerals), overlay);
    }

    private void removeInOverlay(PendingState.Overlay overlay, String path) {
        PendingNode node = overlay.lookup(path);
        if (!node.exists()) {
            return;
        }
        overlay.put(PendingNode.absent(path, -1));
        PendingNode parent = overlay.lookup(PathValidator.parent(path));
        if (parent.exists()) {
            overlay.put(parent.withChildren(parent.cversionCounter(), parent.numChildren() - 1));
        }
    }

    private void prepareMulti(Request request) throws PrepException {
        checkSession(request);
        MultiRequest multi = (MultiRequest) request.body;
        for (MultiRequest.Op op : multi.ops()) {
            if (!isMultiWriteOp(op.type())) {
                throw new PrepException(ErrorCode.MARSHALLING_ERROR);
            }
            if (isCreate(op.type()) && CreateMode.fromFlags(createFlags(op.request())) == null) {
                throw new PrepException(ErrorCode.MARSHALLING_ERROR);
            }
        }
        PendingState.Overlay overlay = pending.overlay();
        List<TxnBody> bodies = new ArrayList<>(multi.ops().size());
        for (int i = 0; i < multi.ops().size(); i++) {
            MultiRequest.Op op = multi.ops().get(i);
            try {
                bodies.add(prepareOp(op.type(), op.request(), request, overlay));
            } catch (PrepException e) {
                List<ErrorCode> results = new ArrayList<>(multi.ops().size());
                for (int j = 0; j < multi.ops().size(); j++) {
                    results.add(j < i ? ErrorCode.OK : j == i ? e.code() : ErrorCode.RUNTIME_INCONSISTENCY);
                }
                request.multiErrors = results;
                return;
            }
        }
        commit(request, new TxnBody.Multi(bodies), overlay);
    }

    private static boolean isMultiWriteOp(int type) {
        return isCreate(type) || type == OpCode.DELETE || type == OpCode.SET_DATA || type == OpCode.CHECK;
    }

    private static boolean isCreate(int type) {
        return type == OpCode.CREATE || type == OpCode.CREATE2 || type == OpCode.CREATE_CONTAINER
                || type == OpCode.CREATE_TTL;
    }

    private static int createFlags(Record request) {
        return request instanceof CreateTTLRequest ttl ? ttl.flags() : ((CreateRequest) request).flags();
    }

    private TxnBody prepareOp(int opcode, Record body, Request request, PendingState.Overlay overlay)
            throws PrepException {
        AuthIdentities who = request.origin.identities();
        if (skipAclChecks) {
            who.skipAclChecks();
        }
        return switch (opcode) {
            case OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER -> {
                CreateRequest create = (CreateRequest) body;
                yield create(opcode, create.path(), create.data(), create.acl(), create.flags(), -1, request, who, overlay);
            }
            case OpCode.CREATE_TTL -> {
                CreateTTLRequest create = (CreateTTLRequest) body;
                yield create(opcode, create.path(), create.data(), create.acl(), create.flags(), create.ttl(), request,
                        who, overlay);
            }
            case OpCode.DELETE -> delete((DeleteRequest) body, who, overlay);
            case OpCode.SET_DATA -> setData((SetDataRequest) body, who, overlay);
            case OpCode.SET_ACL -> setAcl((SetACLRequest) body, who, overlay);
            case OpCode.CHECK -> check((CheckVersionRequest) body, who, overlay);
            default -> throw new PrepException(ErrorCode.UNIMPLEMENTED);
        };
    }

    private TxnBody create(int opcode, String path, byte[] data, List<dev.warden.protocol.Acl> acl, int flags,
                           long ttlMs, Request request, AuthIdentities who, PendingState.Overlay overlay)
            throws PrepException {
        CreateMode mode = CreateMode.fromFlags(flags);
        if (mode == null) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        if (opcode == OpCode.CREATE_TTL) {
            if (!ttlEnabled) {
                throw new PrepException(ErrorCode.UNIMPLEMENTED);
            }
            if (!mode.isTtl() || ttlMs <= 0 || ttlMs > NodeOwner.MAX_TTL_MS) {
                throw new PrepException(ErrorCode.BAD_ARGUMENTS);
            }
        } else if (mode.isTtl()) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        if (path == null || path.indexOf('/') < 0 || path.indexOf('\0') >= 0) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        List<dev.warden.protocol.Acl> fixedAcl = AclChecker.fixup(acl, who);
        if (fixedAcl == null) {
            throw new PrepException(ErrorCode.INVALID_ACL);
        }
        String parentPath = PathValidator.parent(path);
        PendingNode parent = overlay.lookup(parentPath);
        if (!parent.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(parent.acl(), Perms.CREATE, who)) {
            throw new PrepException(ErrorCode.NO_AUTH);
        }
        String finalPath = mode.isSequential() ? path + String.format("%010d", parent.cversionCounter()) : path;
        if (!PathValidator.isValid(finalPath)) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        if (overlay.lookup(finalPath).exists()) {
            throw new PrepException(ErrorCode.NODE_EXISTS);
        }
        if (NodeOwner.isEphemeral(parent.owner())) {
            throw new PrepException(ErrorCode.NO_CHILDREN_FOR_EPHEMERALS);
        }
        if (quotaGuard.exceededByCreate(finalPath, data == null ? 0 : data.length) != null) {
            throw new PrepException(ErrorCode.QUOTA_EXCEEDED);
        }
        long owner;
        if (opcode == OpCode.CREATE_CONTAINER) {
            owner = NodeOwner.CONTAINER;
        } else if (opcode == OpCode.CREATE_TTL) {
            owner = NodeOwner.ttl(ttlMs);
        } else if (mode.isEphemeral()) {
            checkEphemeralOwner(request);
            owner = request.sessionId;
        } else {
            owner = NodeOwner.PERSISTENT;
        }
        int newCounter = parent.cversionCounter() + 1;
        overlay.put(parent.withChildren(newCounter, parent.numChildren() + 1));
        overlay.put(new PendingNode(finalPath, -1, true, fixedAcl, 0, 0, 0, 0, owner));
        return new TxnBody.Create(finalPath, data, fixedAcl, owner, newCounter);
    }

    private TxnBody delete(DeleteRequest delete, AuthIdentities who, PendingState.Overlay overlay)
            throws PrepException {
        String path = delete.path();
        if (path == null || path.indexOf('/') < 0 || path.indexOf('\0') >= 0 || DataTree.isSystemPath(path)) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        PendingNode parent = overlay.lookup(PathValidator.parent(path));
        if (!parent.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(parent.acl(), Perms.DELETE, who)) {
            throw new PrepException(ErrorCode.NO_AUTH);
        }
        PendingNode node = overlay.lookup(path);
        if (!node.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (delete.version() != -1 && delete.version() != node.version()) {
            throw new PrepException(ErrorCode.BAD_VERSION);
        }
        if (node.numChildren() > 0) {
            throw new PrepException(ErrorCode.NOT_EMPTY);
        }
        removeInOverlay(overlay, path);
        return new TxnBody.Delete(path);
    }

    /** Server-side removal of an empty container or expired TTL node (also opcode 20). */
    private TxnBody deleteContainer(DeleteContainerRequest delete, PendingState.Overlay overlay)
            throws PrepException {
        String path = delete.path();
        if (path == null || DataTree.isSystemPath(path)) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        PendingNode node = overlay.lookup(path);
        if (!node.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (node.numChildren() > 0) {
            throw new PrepException(ErrorCode.NOT_EMPTY);
        }
        if (NodeOwner.isEphemeral(node.owner())) {
            throw new PrepException(ErrorCode.BAD_VERSION);
        }
        removeInOverlay(overlay, path);
        return new TxnBody.Delete(path);
    }

    private TxnBody setData(SetDataRequest set, AuthIdentities who, PendingState.Overlay overlay)
            throws PrepException {
        if (!PathValidator.isValid(set.path())) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        PendingNode node = overlay.lookup(set.path());
        if (!node.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(node.acl(), Perms.WRITE, who)) {
            throw new PrepException(ErrorCode.NO_AUTH);
        }
        if (quotaGuard.exceededBySetData(set.path(), set.data() == null ? 0 : set.data().length) != null) {
            throw new PrepException(ErrorCode.QUOTA_EXCEEDED);
        }
        if (set.version() != -1 && set.version() != node.version()) {
            throw new PrepException(ErrorCode.BAD_VERSION);
        }
        int newVersion = node.version() + 1;
        overlay.put(node.withVersion(newVersion));
        return new TxnBody.SetData(set.path(), set.data(), newVersion);
    }

    private TxnBody setAcl(SetACLRequest set, AuthIdentities who, PendingState.Overlay overlay)
            throws PrepException {
        if (!PathValidator.isValid(set.path())) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        List<dev.warden.protocol.Acl> fixedAcl = AclChecker.fixup(set.acl(), who);
        if (fixedAcl == null) {
            throw new PrepException(ErrorCode.INVALID_ACL);
        }
        PendingNode node = overlay.lookup(set.path());
        if (!node.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(node.acl(), Perms.ADMIN, who)) {
            throw new PrepException(ErrorCode.NO_AUTH);
        }
        if (set.version() != -1 && set.version() != node.aversion()) {
            throw new PrepException(ErrorCode.BAD_VERSION);
        }
        int newAversion = node.aversion() + 1;
        overlay.put(node.withAcl(fixedAcl, newAversion));
        return new TxnBody.SetAcl(set.path(), fixedAcl, newAversion);
    }

    private TxnBody check(CheckVersionRequest check, AuthIdentities who, PendingState.Overlay overlay)
            throws PrepException {
        if (!PathValidator.isValid(check.path())) {
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
        PendingNode node = overlay.lookup(check.path());
        if (!node.exists()) {
            throw new PrepException(ErrorCode.NO_NODE);
        }
        if (!AclChecker.permits(node.acl(), Perms.READ, who)) {
            throw new PrepException(ErrorCode.NO_AUTH);
        }
        if (check.version() != -1 && check.version() != node.version()) {
            throw new PrepException(ErrorCode.BAD_VERSION);
        }
        return new TxnBody.Check(check.path());
    }
}
