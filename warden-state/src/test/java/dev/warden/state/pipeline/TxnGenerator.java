package dev.warden.state.pipeline;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CheckVersionRequest;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateTTLRequest;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.Id;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.SetACLRequest;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.common.ManualClock;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.watch.WatchRecipient;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Produces a valid, seeded sequence of transactions by running random requests through the
 * real Preparer against a live state machine (applying each as it goes).
 */
public final class TxnGenerator {
    private static final String[] NAMES = {"a", "b", "c", "d"};
    private final Random random;
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final StateMachine state;
    private final Preparer preparer;
    private final List<Long> sessions = new ArrayList<>();
    private final Origin origin = new TestOrigin();

    public TxnGenerator(long seed) {
        random = new Random(seed);
        state = new StateMachine(new DataTree(), new SessionTracker(clock, 100, 1));
        preparer = new Preparer(new PendingState(state.tree()), state.sessions(), clock, random, true, 0);
    }

    public StateMachine state() {
        return state;
    }

    /** The next successful transaction (already applied to {@link #state()}). */
    public Txn next() {
        while (true) {
            clock.advance(random.nextInt(5));
            Request request = randomRequest();
            preparer.prepare(request);
            if (request.txn != null) {
                state.apply(request.txn);
                return request.txn;
            }
        }
    }

    private Request randomRequest() {
        if (sessions.isEmpty() || random.nextInt(40) == 0) {
            Request create = Request.createSession(origin, 1000, true);
            preparer.prepare(create);
            sessions.add(create.txn.sessionId());
            return create;
        }
        long session = sessions.get(random.nextInt(sessions.size()));
        if (random.nextInt(60) == 0) {
            sessions.remove(session);
            return new Request(origin, session, 1, OpCode.CLOSE_SESSION, null);
        }
        int kind = random.nextInt(7);
        int opcode = switch (kind) {
            case 0, 1 -> OpCode.CREATE2;
            case 2 -> OpCode.DELETE;
            case 3 -> OpCode.SET_DATA;
            case 4 -> OpCode.SET_ACL;
            case 5 -> OpCode.CREATE_TTL;
            default -> OpCode.MULTI;
        };
        return new Request(origin, session, 1, opcode, body(opcode, session));
    }

    private Record body(int opcode, long session) {
        String path = randomPath();
        return switch (opcode) {
            case OpCode.CREATE2 -> new CreateRequest(path, data(), Perms.OPEN_ACL_UNSAFE, random.nextInt(4));
            case OpCode.CREATE_TTL -> new CreateTTLRequest(path, data(), Perms.OPEN_ACL_UNSAFE, 5, 1 + random.nextInt(1000));
            case OpCode.DELETE -> new DeleteRequest(path, -1);
            case OpCode.SET_DATA -> new SetDataRequest(path, data(), -1);
            case OpCode.SET_ACL -> new SetACLRequest(path, random.nextBoolean() ? Perms.OPEN_ACL_UNSAFE
                    : List.of(new Acl(Perms.ALL, Perms.ANYONE), new Acl(Perms.READ, new Id("ip", "10.0.0.0/8"))), -1);
            default -> new MultiRequest(List.of(
                    new MultiRequest.Op(OpCode.CREATE, new CreateRequest(randomPath(), data(), Perms.OPEN_ACL_UNSAFE, 0)),
                    new MultiRequest.Op(OpCode.SET_DATA, new SetDataRequest(randomPath(), data(), -1)),
                    new MultiRequest.Op(OpCode.CHECK, new CheckVersionRequest(randomPath(), -1))));
        };
    }

    private String randomPath() {
        StringBuilder path = new StringBuilder();
        int depth = 1 + random.nextInt(3);
        for (int i = 0; i < depth; i++) {
            path.append('/').append(NAMES[random.nextInt(NAMES.length)]);
        }
        return path.toString();
    }

    private byte[] data() {
        byte[] data = new byte[random.nextInt(8)];
        random.nextBytes(data);
        return random.nextInt(10) == 0 ? null : data;
    }

    /** An origin with the identities of a client at 127.0.0.1 that takes its answers and drops them. */
    static final class TestOrigin implements Origin {
        private final AuthIdentities identities = new AuthIdentities("127.0.0.1");

        @Override
        public AuthIdentities identities() {
            return identities;
        }

        @Override
        public void send(ReplyHeader header, Record body) {
        }

        @Override
        public void requestDone(Request request) {
        }

        @Override
        public void closeAfterFlush() {
        }

        @Override
        public WatchRecipient watcher() {
            return (type, path, zxid, acl) -> { };
        }

        @Override
        public void sessionCreated(long sessionId, int timeoutMs, byte[] password) {
        }
    }
}
