package dev.warden.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ClientInfo;
import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetSASLRequest;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.protocol.SetSASLResponse;
import dev.warden.protocol.WhoAmIResponse;
import dev.warden.server.LogCapture;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes the SASL exchange on the client port (DIGEST-MD5) over raw connections, as the client
 * port's frames are fuzzed: random tokens, a real response with its digest altered, a response
 * replayed from an earlier exchange, an exchange cut short, a token larger than
 * {@code jute.maxbuffer}, and a SASL request after a completed exchange. Each is refused (AUTH_FAILED
 * and the connection closed, or closed at the frame's length) and none gains an identity, while
 * real exchanges interleaved with them keep authenticating. The password never reaches the log.
 * Set WARDEN_FUZZ_SEED to replay; the seed in use is printed.
 */
class SaslExchangeFuzzTest {
    private static final int EXCHANGES = 1000;
    private static final int JUTE_MAX_BUFFER = 64 * 1024;
    private static final String PASSWORD = "bob-fuzz-secret-5a0d";
    private static final int READ_TIMEOUT_MS = 10_000;

    private enum Kind { RANDOM_TOKENS, ALTERED_DIGEST, REPLAYED_RESPONSE, CUT_SHORT, OVERSIZED, AFTER_COMPLETION, REAL }

    @TempDir
    Path dir;

    @Test
    void fuzzedExchangesAreRefusedAndNeverAuthenticateWhileRealOnesDo() throws Exception {
        String fixed = System.getenv("WARDEN_FUZZ_SEED");
        long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        System.out.println("SaslExchangeFuzzTest seed " + seed + " (replay with WARDEN_FUZZ_SEED=" + seed + ")");
        Random random = new Random(seed);
        Path jaas = Files.writeString(dir.resolve("jaas.conf"), "Server {\n"
                + "  org.apache.zookeeper.server.auth.DigestLoginModule required\n"
                + "  user_bob=\"" + PASSWORD + "\";\n};\n");
        Properties cfg = new Properties();
        cfg.setProperty("dataDir", dir.resolve("data").toString());
        cfg.setProperty("clientPort", "0");
        cfg.setProperty("jute.maxbuffer", Integer.toString(JUTE_MAX_BUFFER));
        cfg.setProperty("forceSync", "no"); // each exchange opens a session: a logged write
        cfg.setProperty("java.security.auth.login.config", jaas.toString());
        Map<Kind, Integer> counts = new java.util.EnumMap<>(Kind.class);
        Map<Kind, Long> spentMs = new java.util.EnumMap<>(Kind.class);
        try (LogCapture log = LogCapture.start();
             WardenServer server = WardenServer.start(ConfigLoader.fromProperties(cfg, w -> { }))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.clientPort());
            byte[] recorded = realExchange(address, null);
            for (int i = 0; i < EXCHANGES; i++) {
                Kind kind = i % 10 == 9 ? Kind.REAL : Kind.values()[random.nextInt(Kind.values().length - 1)];
                counts.merge(kind, 1, Integer::sum);
                long startNs = System.nanoTime();
                String context = "exchange " + i + " (" + kind + "), seed " + seed;
                switch (kind) {
                    case RANDOM_TOKENS -> randomTokens(address, random, context);
                    case ALTERED_DIGEST -> alteredDigest(address, random, context);
                    case REPLAYED_RESPONSE -> replayed(address, recorded, context);
                    case CUT_SHORT -> cutShort(address);
                    case OVERSIZED -> oversized(address, context);
                    case AFTER_COMPLETION -> afterCompletion(address, recorded, context);
                    case REAL -> recorded = realExchange(address, context);
                }
                spentMs.merge(kind, (System.nanoTime() - startNs) / 1_000_000, Long::sum);
            }
            realExchange(address, "after the fuzzing, seed " + seed);
            assertFalse(log.text().contains(PASSWORD), "the password reached the log");
        }
        System.out.println("SaslExchangeFuzzTest exchanges " + counts + ", ms spent " + spentMs);
    }

    /** Random tokens: a non-empty first one is refused at once, an empty one gets a challenge first. */
    private static void randomTokens(InetSocketAddress address, Random random, String context) throws IOException {
        try (RawSession s = RawSession.open(address)) {
            for (int round = 0; round < 3; round++) {
                byte[] token = new byte[random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(1500)];
                random.nextBytes(token);
                Reply reply = s.sasl(token);
                if (reply.err() != 0) {
                    assertEquals(ErrorCode.AUTH_FAILED.code(), reply.err(), context);
                    s.assertClosed(context);
                    return;
                }
                assertTrue(token.length == 0 || round == 0, context + ": a random token was answered " + reply);
            }
            // three empty tokens in a row: the exchange never completes and grants nothing
            assertEquals(java.util.List.of(), s.saslIdentities(), context);
        }
    }

    private static void alteredDigest(InetSocketAddress address, Random random, String context) throws Exception {
        try (RawSession s = RawSession.open(address)) {
            SaslClient client = digestClient("bob", PASSWORD);
            Reply challenge = s.sasl(new byte[0]);
            assertEquals(0, challenge.err(), context);
            String response = new String(client.evaluateChallenge(challenge.token()), StandardCharsets.UTF_8);
            int at = response.indexOf("response=") + "response=".length();
            int position = at + random.nextInt(32);
            char original = response.charAt(position);
            char altered = "0123456789abcdef".replace(String.valueOf(original), "").charAt(random.nextInt(15));
            String tampered = response.substring(0, position) + altered + response.substring(position + 1);
            Reply reply = s.sasl(tampered.getBytes(StandardCharsets.UTF_8));
            assertEquals(ErrorCode.AUTH_FAILED.code(), reply.err(), context);
            s.assertClosed(context);
        }
    }

    private static void replayed(InetSocketAddress address, byte[] recorded, String context) throws IOException {
        try (RawSession s = RawSession.open(address)) {
            assertEquals(0, s.sasl(new byte[0]).err(), context);
            Reply reply = s.sasl(recorded);
            assertEquals(ErrorCode.AUTH_FAILED.code(), reply.err(), context + ": a response for another nonce");
            s.assertClosed(context);
        }
    }

    private static void cutShort(InetSocketAddress address) throws IOException {
        try (RawSession s = RawSession.open(address)) {
            s.sasl(new byte[0]);
        } // closed with the exchange half done
    }

    private static void oversized(InetSocketAddress address, String context) throws IOException {
        try (RawSession s = RawSession.open(address)) {
            s.writeLengthOnly(JUTE_MAX_BUFFER + 1024);
            s.assertClosed(context);
        }
    }

    private static void afterCompletion(InetSocketAddress address, byte[] recorded, String context) throws Exception {
        try (RawSession s = RawSession.open(address)) {
            authenticate(s, context);
            Reply reply = s.sasl(recorded);
            assertEquals(ErrorCode.AUTH_FAILED.code(), reply.err(), context + ": a token after the exchange ended");
            s.assertClosed(context);
        }
    }

    /** A real exchange on a fresh session; returns the client's response token, for replaying. */
    private static byte[] realExchange(InetSocketAddress address, String context) throws Exception {
        try (RawSession s = RawSession.open(address)) {
            byte[] response = authenticate(s, context);
            assertEquals(java.util.List.of(new ClientInfo("sasl", "bob")), s.saslIdentities(), context);
            return response;
        }
    }

    private static byte[] authenticate(RawSession s, String context) throws Exception {
        SaslClient client = digestClient("bob", PASSWORD);
        Reply challenge = s.sasl(new byte[0]);
        assertEquals(0, challenge.err(), context);
        byte[] response = client.evaluateChallenge(challenge.token());
        Reply done = s.sasl(response);
        assertEquals(0, done.err(), context);
        client.evaluateChallenge(done.token());
        assertTrue(client.isComplete(), context + ": the server proved itself (rspauth)");
        return response;
    }

    private static SaslClient digestClient(String user, String password) throws Exception {
        SaslClient client = Sasl.createSaslClient(new String[] {"DIGEST-MD5"}, null, "zookeeper", "zk-sasl-md5",
                Map.of(Sasl.QOP, "auth"), (Callback[] callbacks) -> {
                    for (Callback callback : callbacks) {
                        if (callback instanceof NameCallback name) {
                            name.setName(user);
                        } else if (callback instanceof PasswordCallback pw) {
                            pw.setPassword(password.toCharArray());
                        } else if (callback instanceof RealmCallback realm) {
                            realm.setText(realm.getDefaultText());
                        }
                    }
                });
        assertNotNull(client);
        return client;
    }

    record Reply(int err, byte[] token) {
    }

    /** A session on a raw socket: the handshake, then SASL and whoAmI requests. */
    private static final class RawSession implements AutoCloseable {
        private final Socket socket;
        private final DataOutputStream out;
        private final DataInputStream in;
        private int nextXid = 1;

        private RawSession(Socket socket) throws IOException {
            this.socket = socket;
            // buffered: a frame leaves in one write (a split one waits out Nagle and a delayed ACK)
            this.out = new DataOutputStream(new java.io.BufferedOutputStream(socket.getOutputStream()));
            this.in = new DataInputStream(socket.getInputStream());
        }

        static RawSession open(InetSocketAddress address) throws IOException {
            Socket socket = new Socket();
            socket.connect(address, READ_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            RawSession session = new RawSession(socket);
            JuteWriter connect = new JuteWriter();
            new ConnectRequest(0, 0, 10_000, 0, new byte[16], false, true).writeTo(connect);
            session.writeFrame(connect.toByteArray());
            session.readFrame();
            return session;
        }

        Reply sasl(byte[] token) throws IOException {
            JuteReader body = call(OpCode.SASL, new GetSASLRequest(token));
            return body == null ? new Reply(lastErr, null) : new Reply(0, SetSASLResponse.read(body).token());
        }

        java.util.List<ClientInfo> saslIdentities() throws IOException {
            JuteReader body = call(OpCode.WHO_AM_I, null);
            assertNotNull(body, "whoAmI failed with " + lastErr);
            return WhoAmIResponse.read(body).clientInfo().stream().filter(i -> i.authScheme().equals("sasl")).toList();
        }

        private int lastErr;

        /** The reply's body, or null with {@link #lastErr} set when it is an error. */
        private JuteReader call(int opCode, Record request) throws IOException {
            int xid = nextXid++;
            JuteWriter writer = new JuteWriter();
            new RequestHeader(xid, opCode).writeTo(writer);
            if (request != null) {
                request.writeTo(writer);
            }
            writeFrame(writer.toByteArray());
            while (true) {
                JuteReader reader = new JuteReader(readFrame());
                ReplyHeader header = ReplyHeader.read(reader);
                if (header.xid() == xid) {
                    lastErr = header.err();
                    return header.err() == 0 ? reader : null;
                }
            }
        }

        void writeLengthOnly(int length) throws IOException {
            out.writeInt(length);
            out.write(new byte[64]);
            out.flush();
        }

        /** The server hung up: the next read finds the end of the stream (or a reset). */
        void assertClosed(String context) throws IOException {
            try {
                assertEquals(-1, in.read(), context + ": the connection stays open");
            } catch (SocketException reset) {
                // closed with unread bytes on its side: a reset is a hang-up too
            }
        }

        private void writeFrame(byte[] payload) throws IOException {
            out.writeInt(payload.length);
            out.write(payload);
            out.flush();
        }

        private byte[] readFrame() throws IOException {
            int length = in.readInt();
            if (length < 0 || length > JUTE_MAX_BUFFER * 2) {
                throw new IOException("bad frame length " + length);
            }
            byte[] payload = new byte[length];
            in.readFully(payload);
            return payload;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
