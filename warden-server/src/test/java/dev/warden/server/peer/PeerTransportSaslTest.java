package dev.warden.server.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.ZabMessage;
import dev.warden.server.LogCapture;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.security.QuorumSaslSettings;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members authenticating each other with SASL DIGEST-MD5 ({@code quorum.auth.*}, JAAS sections
 * QuorumServer and QuorumLearner as ZooKeeper writes them) on real transports over loopback: the
 * right password lets messages flow both ways; a wrong one keeps the member out both ways, logged
 * with its address; a stranger who fails to authenticate as a member does not displace it; a
 * member that does not authenticate is refused where SASL is required and taken where it is only
 * enabled (the first step of a rolling switch).
 */
class PeerTransportSaslTest {
    private static final long WAIT_MS = 10_000;
    private static final long REFUSED_WAIT_MS = 600;
    private static final String SECRET = "quorum-secret-7f3a";

    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A JAAS file with both quorum sections holding this password for user zkquorum. */
    private Path jaas(String name, String password) throws IOException {
        return Files.writeString(dir.resolve(name + ".jaas"), """
                QuorumServer {
                  org.apache.zookeeper.server.auth.DigestLoginModule required
                  user_zkquorum="%s";
                };
                QuorumLearner {
                  org.apache.zookeeper.server.auth.DigestLoginModule required
                  username="zkquorum"
                  password="%s";
                };
                """.formatted(password, password));
    }

    private static PeerSecurity sasl(Path jaasFile, boolean require, Map<Long, QuorumMember> members) {
        return new PeerSecurity(PeerTls.NONE, PeerSasl.of(new QuorumSaslSettings(true, require, require,
                QuorumSaslSettings.DEFAULT_PRINCIPAL, "QuorumLearner", "QuorumServer"), jaasFile, members.values()));
    }

    private PeerTransport start(long id, Map<Long, QuorumMember> members, PeerTransportTlsTest.TypedInbox inbox,
                                PeerSecurity security) throws InterruptedException {
        PeerTransport t = new PeerTransport(id, members, inbox,
                new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 200, 5_000), security);
        open.add(t);
        t.start();
        return t;
    }

    @Test
    void membersWithTheRightPasswordExchangeMessagesBothWays() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(3);
        Path jaas = jaas("good", SECRET);
        PeerTransportTlsTest.TypedInbox[] inbox = {null, new PeerTransportTlsTest.TypedInbox(),
            new PeerTransportTlsTest.TypedInbox(), new PeerTransportTlsTest.TypedInbox()};
        PeerTransport[] t = new PeerTransport[4];
        try (LogCapture log = LogCapture.start()) {
            for (int id = 1; id <= 3; id++) {
                t[id] = start(id, members, inbox[id], sasl(jaas, true, members));
            }
            for (int from = 1; from <= 3; from++) {
                for (int to = 1; to <= 3; to++) {
                    if (from != to) {
                        assertTrue(inbox[to].awaitBothPorts(t[from], to, WAIT_MS), from + " reaches " + to);
                    }
                }
            }
            for (int i = 0; i < 200; i++) {
                t[3].send(1, new ZabMessage.Commit(i));
            }
            for (int i = 0; i < 200; i++) {
                assertEquals(new ZabMessage.Commit(i), inbox[1].next(3));
            }
            assertFalse(log.text().contains(SECRET), "the password is never logged");
        }
    }

    @Test
    void aMemberWithAWrongPasswordIsKeptOutBothWaysAndLoggedWithItsAddress() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(3);
        Path good = jaas("good", SECRET);
        Path bad = jaas("bad", "not-the-secret-91c2");
        PeerTransportTlsTest.TypedInbox inbox1 = new PeerTransportTlsTest.TypedInbox();
        PeerTransportTlsTest.TypedInbox inbox2 = new PeerTransportTlsTest.TypedInbox();
        PeerTransportTlsTest.TypedInbox inbox3 = new PeerTransportTlsTest.TypedInbox();
        try (LogCapture log = LogCapture.start()) {
            PeerTransport t1 = start(1, members, inbox1, sasl(good, true, members));
            PeerTransport t2 = start(2, members, inbox2, sasl(good, true, members));
            PeerTransport t3 = start(3, members, inbox3, sasl(bad, true, members));
            String refused = log.awaitLine(l -> l.contains("connection from /127.0.0.1:")
                    && l.contains("says it is member 3") && l.contains("SASL authentication (DIGEST-MD5) failed"),
                    WAIT_MS);
            assertTrue(refused.contains("quorum.auth.serverRequireSasl=true"), refused);
            log.awaitLine(l -> l.contains("Cannot connect to member 3 at") && l.contains("refused this member's SASL"),
                    WAIT_MS);
            assertFalse(inbox1.awaitBothPorts(t3, 1, REFUSED_WAIT_MS), "member 3 cannot vote or propose");
            assertFalse(inbox3.awaitBothPorts(t1, 3, REFUSED_WAIT_MS), "member 3 is sent nothing");
            assertTrue(inbox2.awaitBothPorts(t1, 2, WAIT_MS), "the others go on");
            assertTrue(inbox1.awaitBothPorts(t2, 1, WAIT_MS));
            assertFalse(log.text().contains(SECRET) || log.text().contains("not-the-secret"), "no password logged");
        }
    }

    /**
     * Someone who reaches the ports and claims to be member 2 but cannot authenticate is shut out
     * before it counts: the real member 2's connection stays and keeps delivering.
     */
    @Test
    void aStrangerWhoFailsToAuthenticateDoesNotDisplaceTheRealMember() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(2);
        Path jaas = jaas("good", SECRET);
        PeerTransportTlsTest.TypedInbox inbox1 = new PeerTransportTlsTest.TypedInbox();
        start(1, members, inbox1, sasl(jaas, true, members));
        PeerTransport t2 = start(2, members, new PeerTransportTlsTest.TypedInbox(), sasl(jaas, true, members));
        assertTrue(inbox1.awaitBothPorts(t2, 1, WAIT_MS));
        for (int port : List.of(members.get(1L).peerPort(), members.get(1L).electionPort())) {
            try (Socket stranger = new Socket(InetAddress.getLoopbackAddress(), port)) {
                stranger.setSoTimeout((int) WAIT_MS);
                DataOutputStream out = new DataOutputStream(stranger.getOutputStream());
                out.writeInt(PeerWire.HELLO_BYTES);
                out.writeInt(PeerWire.MAGIC);
                out.writeInt(PeerWire.VERSION);
                out.writeLong(2);
                out.writeInt(PeerWire.SASL);
                out.writeInt(0); // DIGEST-MD5 starts with an empty token; a challenge comes back
                out.flush();
                DataInputStream in = new DataInputStream(stranger.getInputStream());
                byte[] challenge = in.readNBytes(in.readInt());
                assertEquals(PeerWire.AuthStatus.CHALLENGE.ordinal(), challenge[0]);
                byte[] guess = ("charset=utf-8,username=\"zkquorum\",realm=\"zk-quorum-sasl-md5\",nonce=\"x\","
                        + "nc=00000001,cnonce=\"y\",digest-uri=\"zookeeper-quorum/zk-quorum-sasl-md5\",maxbuf=65536,"
                        + "response=0123456789abcdef0123456789abcdef,qop=auth").getBytes(StandardCharsets.UTF_8);
                out.writeInt(guess.length);
                out.write(guess);
                out.flush();
                byte[] reply = in.readNBytes(in.readInt());
                assertEquals(PeerWire.AuthStatus.FAILED.ordinal(), reply[0], "the stranger is told it failed");
                assertEquals(-1, in.read(), "and is cut off");
            }
        }
        for (int i = 0; i < 50; i++) {
            t2.send(1, new ZabMessage.Ack(i));
        }
        for (int i = 0; i < 50; i++) {
            assertEquals(new ZabMessage.Ack(i), inbox1.next(2), "member 2's own connection still delivers");
        }
    }

    @Test
    void aMemberThatDoesNotAuthenticateIsRefusedWhereRequiredAndTakenWhereOnlyEnabled() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(3);
        Path jaas = jaas("good", SECRET);
        PeerTransportTlsTest.TypedInbox inbox1 = new PeerTransportTlsTest.TypedInbox();
        PeerTransportTlsTest.TypedInbox inbox2 = new PeerTransportTlsTest.TypedInbox();
        PeerTransportTlsTest.TypedInbox inbox3 = new PeerTransportTlsTest.TypedInbox();
        try (LogCapture log = LogCapture.start()) {
            PeerTransport required = start(1, members, inbox1, sasl(jaas, true, members));
            PeerTransport enabled = start(2, members, inbox2, sasl(jaas, false, members));
            PeerTransport without = start(3, members, inbox3, PeerSecurity.NONE);
            log.awaitLine(l -> l.contains("says it is member 3") && l.contains("did not authenticate")
                    && l.contains("quorum.auth.serverRequireSasl=true"), WAIT_MS);
            assertFalse(inbox1.awaitBothPorts(without, 1, REFUSED_WAIT_MS), "required: member 3 is refused");
            assertTrue(inbox2.awaitBothPorts(without, 2, WAIT_MS), "enabled only: member 3 is taken");
            assertTrue(inbox3.awaitBothPorts(enabled, 3, WAIT_MS), "and sent to, after it said it has no SASL");
            assertTrue(inbox1.awaitBothPorts(enabled, 1, WAIT_MS), "members 1 and 2 authenticate");
            assertTrue(inbox2.awaitBothPorts(required, 2, WAIT_MS));
        }
    }
}
