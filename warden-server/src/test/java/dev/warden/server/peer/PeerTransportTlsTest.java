package dev.warden.server.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.LogCapture;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.security.AuthEnforcement;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.SaslSettings;
import dev.warden.server.security.SecurityConfig;
import dev.warden.server.security.TestPki;
import dev.warden.server.security.X509Identities;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS between members ({@code sslQuorum}, {@code portUnification}, {@code ssl.quorum.*}) on
 * real transports over loopback, with certificates made by {@link TestPki}: members holding
 * certificates of the CA exchange messages; an untrusted certificate, a certificate for another
 * host, and a member speaking the other protocol are refused and logged with the address; the
 * unified ports of the rolling switch take both.
 */
class PeerTransportTlsTest {
    private static final long WAIT_MS = 10_000;
    /**
     * How long a refused link is watched for messages, after the refusal was logged (so the
     * members had met): several redials at the tests' backoff of 20 to 200 ms.
     */
    private static final long REFUSED_WAIT_MS = 600;

    @TempDir
    static Path dir;
    static TestPki ca;
    static TestPki rogue;
    static Path trustPem;
    static Path trustP12;

    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void makeCertificates() {
        ca = TestPki.create(dir.resolve("ca"), "quorum-ca");
        rogue = TestPki.create(dir.resolve("rogue"), "rogue-ca");
        trustPem = ca.trustStore(TestPki.StoreType.PEM);
        trustP12 = ca.trustStore(TestPki.StoreType.PKCS12);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private record Settings(boolean sslQuorum, boolean portUnification, Path keyStore, Path trustStore,
                            boolean hostnameVerification) {
    }

    private static Settings tls(Path keyStore) {
        return new Settings(true, false, keyStore, trustPem, true);
    }

    private static PeerSecurity security(Settings s) {
        if (!s.sslQuorum() && !s.portUnification()) {
            return PeerSecurity.NONE;
        }
        Map<String, String> keys = new HashMap<>();
        keys.put("ssl.quorum.keyStore.location", s.keyStore().toString());
        keys.put("ssl.quorum.keyStore.password", TestPki.PASSWORD);
        keys.put("ssl.quorum.trustStore.location", s.trustStore().toString());
        keys.put("ssl.quorum.trustStore.password", TestPki.PASSWORD);
        keys.put("ssl.quorum.hostnameVerification", Boolean.toString(s.hostnameVerification()));
        TlsSettings quorumTls = TlsSettings.parse(TlsSettings.QUORUM_PREFIX, keys::get);
        return new PeerSecurity(PeerTls.of(new SecurityConfig(0, null, false, null, true, X509Identities.DEFAULT, s.sslQuorum(),
                s.portUnification(), quorumTls, true, SaslSettings.NONE, AuthEnforcement.OFF, QuorumSaslSettings.OFF)),
                PeerSasl.OFF);
    }

    private static Path memberKeys(String name, TestPki.StoreType type) {
        return ca.keyStore(ca.issue(name), type);
    }

    @Test
    void membersWithCertificatesOfTheCaExchangeMessagesOnBothPorts() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(3);
        TypedInbox[] inbox = {null, new TypedInbox(), new TypedInbox(), new TypedInbox()};
        PeerTransport[] t = new PeerTransport[4];
        t[1] = startTyped(1, members, inbox[1], tls(memberKeys("member-1", TestPki.StoreType.PEM)));
        t[2] = startTyped(2, members, inbox[2], tls(memberKeys("member-2", TestPki.StoreType.PKCS12)));
        t[3] = startTyped(3, members, inbox[3], new Settings(true, false,
                memberKeys("member-3", TestPki.StoreType.JKS), trustP12, true));
        for (int from = 1; from <= 3; from++) {
            for (int to = 1; to <= 3; to++) {
                if (from != to) {
                    assertTrue(inbox[to].awaitBothPorts(t[from], to, WAIT_MS), from + " reaches " + to + " over TLS");
                }
            }
        }
        for (int i = 0; i < 500; i++) {
            t[1].send(2, new ZabMessage.Ack(i));
        }
        for (int i = 0; i < 500; i++) {
            assertEquals(new ZabMessage.Ack(i), inbox[2].next(1));
        }
    }

    @Test
    void aMemberWithACertificateOfAnotherCaIsRefusedAndLoggedWithItsAddress() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(2);
        TypedInbox inbox1 = new TypedInbox();
        TypedInbox inbox2 = new TypedInbox();
        try (LogCapture log = LogCapture.start()) {
            PeerTransport t1 = startTyped(1, members, inbox1, tls(memberKeys("member-1", TestPki.StoreType.PEM)));
            PeerTransport t2 = startTyped(2, members, inbox2, new Settings(true, false,
                    rogue.keyStore(rogue.issue("member-2"), TestPki.StoreType.PEM), rogue.trustStore(
                            TestPki.StoreType.PEM), true));
            String refused = log.awaitLine(l -> l.contains("connection from /127.0.0.1:")
                    && l.contains("TLS handshake failed"), WAIT_MS);
            assertTrue(refused.contains("before hello"), refused);
            log.awaitLine(l -> l.contains("Cannot connect to member 2 at") && l.contains("TLS handshake failed"),
                    WAIT_MS);
            assertTrue(!inbox1.awaitBothPorts(t2, 1, REFUSED_WAIT_MS), "member 1 takes nothing from member 2");
            assertTrue(!inbox2.awaitBothPorts(t1, 2, REFUSED_WAIT_MS), "member 1 sends nothing to member 2");
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefusedBothWaysUnlessHostNamesAreNotChecked() throws Exception {
        TestPki.Issued elsewhere = ca.issue("member-2", List.of("zk2.example.com"), List.of(),
                Instant.now().minus(Duration.ofDays(1)), Instant.now().plus(Duration.ofDays(1)), List.of());
        Path elsewhereKeys = ca.keyStore(elsewhere, TestPki.StoreType.PEM);
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(2);
        TypedInbox inbox1 = new TypedInbox();
        TypedInbox inbox2 = new TypedInbox();
        try (LogCapture log = LogCapture.start()) {
            PeerTransport t1 = startTyped(1, members, inbox1, tls(memberKeys("member-1", TestPki.StoreType.PEM)));
            PeerTransport t2 = startTyped(2, members, inbox2, tls(elsewhereKeys));
            log.awaitLine(l -> l.contains("hello from member 2 refused")
                    && l.contains("names neither the address 127.0.0.1"), WAIT_MS);
            log.awaitLine(l -> l.contains("Cannot connect to member 2") && l.contains("TLS handshake failed"), WAIT_MS);
            assertTrue(!inbox2.awaitBothPorts(t1, 2, REFUSED_WAIT_MS), "member 1 does not send to a member whose"
                    + " certificate names another host");
            assertTrue(!inbox1.awaitBothPorts(t2, 1, REFUSED_WAIT_MS), "member 1 takes nothing from it either");
        }
        closeAll();
        open.clear();
        Map<Long, QuorumMember> unchecked = PeerTransportTest.ensemble(2);
        TypedInbox again1 = new TypedInbox();
        TypedInbox again2 = new TypedInbox();
        PeerTransport u1 = startTyped(1, unchecked, again1, new Settings(true, false,
                memberKeys("member-1", TestPki.StoreType.PEM), trustPem, false));
        PeerTransport u2 = startTyped(2, unchecked, again2, new Settings(true, false, elsewhereKeys, trustPem, false));
        assertTrue(again2.awaitBothPorts(u1, 2, WAIT_MS), "with ssl.quorum.hostnameVerification=false");
        assertTrue(again1.awaitBothPorts(u2, 1, WAIT_MS));
    }

    @Test
    void aTlsOnlyPortRefusesPlaintextMembersAndAPlaintextPortRefusesTls() throws Exception {
        Map<Long, QuorumMember> members = PeerTransportTest.ensemble(2);
        TypedInbox inbox1 = new TypedInbox();
        TypedInbox inbox2 = new TypedInbox();
        try (LogCapture log = LogCapture.start()) {
            PeerTransport t1 = startTyped(1, members, inbox1, tls(memberKeys("member-1", TestPki.StoreType.PEM)));
            PeerTransport t2 = startTyped(2, members, inbox2, new Settings(false, false, null, null, true));
            log.awaitLine(l -> l.contains("not a TLS connection") && l.contains("/127.0.0.1:")
                    && l.contains("portUnification=true"), WAIT_MS);
            log.awaitLine(l -> l.contains("a TLS handshake (first bytes 0x16 0x03) on a port that takes plaintext"
                    + " only") && l.contains("/127.0.0.1:"), WAIT_MS);
            assertTrue(!inbox1.awaitBothPorts(t2, 1, REFUSED_WAIT_MS), "plaintext to a TLS-only port");
            assertTrue(!inbox2.awaitBothPorts(t1, 2, REFUSED_WAIT_MS), "TLS to a plaintext port");
        }
    }

    /**
     * The middle states of the rolling switch: a member with unified ports that still dials in
     * plaintext beside one that dials with TLS (second step), and a member with unified ports
     * beside one that takes TLS only (third step). Every link carries messages in both.
     */
    @Test
    void unifiedPortsTakeTlsAndPlaintextMembersDuringTheRollingSwitch() throws Exception {
        Map<Long, QuorumMember> second = PeerTransportTest.ensemble(2);
        TypedInbox a1 = new TypedInbox();
        TypedInbox a2 = new TypedInbox();
        PeerTransport plainDialler = startTyped(1, second, a1, new Settings(false, true,
                memberKeys("member-1", TestPki.StoreType.PEM), trustPem, true));
        PeerTransport tlsDialler = startTyped(2, second, a2, new Settings(true, true,
                memberKeys("member-2", TestPki.StoreType.PEM), trustPem, true));
        assertTrue(a2.awaitBothPorts(plainDialler, 2, WAIT_MS), "plaintext into a unified port");
        assertTrue(a1.awaitBothPorts(tlsDialler, 1, WAIT_MS), "TLS into a unified port");
        closeAll();
        open.clear();
        Map<Long, QuorumMember> third = PeerTransportTest.ensemble(2);
        TypedInbox b1 = new TypedInbox();
        TypedInbox b2 = new TypedInbox();
        PeerTransport unified = startTyped(1, third, b1, new Settings(true, true,
                memberKeys("member-1", TestPki.StoreType.PEM), trustPem, true));
        PeerTransport tlsOnly = startTyped(2, third, b2, tls(memberKeys("member-2", TestPki.StoreType.PEM)));
        assertTrue(b2.awaitBothPorts(unified, 2, WAIT_MS), "TLS into a TLS-only port");
        assertTrue(b1.awaitBothPorts(tlsOnly, 1, WAIT_MS), "TLS into a unified port");
    }

    private PeerTransport startTyped(long id, Map<Long, QuorumMember> members, TypedInbox inbox, Settings settings)
            throws InterruptedException {
        PeerTransport t = new PeerTransport(id, members, inbox,
                new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 200, 60_000), security(settings));
        open.add(t);
        t.start();
        return t;
    }

    /** What one transport delivered, message by message. */
    static final class TypedInbox implements PeerHandler {
        record Delivered(long from, ZabMessage message) {
        }

        final BlockingQueue<Delivered> delivered = new LinkedBlockingQueue<>();

        @Override
        public void onMessage(long from, ZabMessage message) {
            delivered.add(new Delivered(from, message));
        }

        @Override
        public void onDisconnected(long peer) {
        }

        /**
         * Sends a vote (election port) and a ping (peer port) from {@code sender} until both
         * arrived here; false if they did not within {@code waitMs}.
         */
        boolean awaitBothPorts(PeerTransport sender, long me, long waitMs) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            boolean vote = false;
            boolean ping = false;
            while (System.nanoTime() < deadline && !(vote && ping)) {
                sender.send(me, new ZabMessage.Vote(-1, 0, 0, 0, Role.LOOKING));
                sender.send(me, new ZabMessage.PingAck(-1));
                Thread.sleep(20);
                for (Delivered d; (d = delivered.poll()) != null; ) {
                    if (d.from() == sender.myId()) {
                        vote |= d.message() instanceof ZabMessage.Vote;
                        ping |= d.message() instanceof ZabMessage.PingAck;
                    }
                }
            }
            Thread.sleep(50);
            delivered.clear();
            return vote && ping;
        }

        /** The next message from {@code from}, skipping probes. */
        ZabMessage next(long from) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (System.nanoTime() < deadline) {
                Delivered d = delivered.poll(100, TimeUnit.MILLISECONDS);
                if (d != null && d.from() == from && !(d.message() instanceof ZabMessage.Vote)
                        && !(d.message() instanceof ZabMessage.PingAck)) {
                    return d.message();
                }
            }
            throw new AssertionError("no message from " + from + " within " + WAIT_MS + " ms");
        }
    }
}
