package dev.warden.server.peer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.FreePorts;
import dev.warden.server.LogCapture;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.TestKdc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members authenticating each other with Kerberos (GSSAPI) against a KDC in this JVM
 * ({@link TestKdc}), with keytabs made at test time, as ZooKeeper's quorum Kerberos is set up:
 * each member serves as {@code zkquorum/<host>} (QuorumServer) and dials as
 * {@code learner/<host>} (QuorumLearner), asking for tickets to
 * {@code quorum.auth.kerberos.servicePrincipal} with {@code _HOST} for the dialled host. A ticket
 * for another service, and a learner principal whose host is no member's, are refused.
 */
class PeerTransportKerberosTest {
    private static final long WAIT_MS = 15_000;
    private static final long REFUSED_WAIT_MS = 600;
    private static final String HOST = "localhost";

    @TempDir
    static Path dir;
    static Path jaas;

    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void principals() throws Exception {
        Path server = TestKdc.keytab(dir, "zkquorum/" + HOST);
        Path learner = TestKdc.keytab(dir, "learner/" + HOST);
        Path stranger = TestKdc.keytab(dir, "learner/elsewhere.example.com");
        TestKdc.keytab(dir, "otherservice/" + HOST); // known to the KDC; no member serves as it
        String realm = "@" + TestKdc.REALM;
        jaas = Files.writeString(dir.resolve("quorum.jaas"), TestKdc.section("QuorumServer", server,
                "zkquorum/" + HOST + realm) + TestKdc.section("QuorumLearner", learner, "learner/" + HOST + realm)
                + TestKdc.section("StrangerLearner", stranger, "learner/elsewhere.example.com" + realm));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private static Map<Long, QuorumMember> ensemble(int size) {
        Map<Long, QuorumMember> members = new LinkedHashMap<>();
        for (long id = 1; id <= size; id++) {
            members.put(id, new QuorumMember(id, HOST, FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        return members;
    }

    private PeerTransport start(long id, Map<Long, QuorumMember> members, PeerTransportTlsTest.TypedInbox inbox,
                                String learnerSection, String servicePrincipal) throws InterruptedException {
        PeerSecurity security = new PeerSecurity(PeerTls.NONE, PeerSasl.of(new QuorumSaslSettings(true, true, true,
                servicePrincipal, learnerSection, "QuorumServer"), jaas, members.values()));
        PeerTransport t = new PeerTransport(id, members, inbox,
                new PeerOptions(1 << 20, 10_000, 64L << 20, 20, 200, 10_000), security);
        open.add(t);
        t.start();
        return t;
    }

    @Test
    void membersAuthenticateWithTheirKeytabsAndExchangeMessages() throws Exception {
        Map<Long, QuorumMember> members = ensemble(2);
        PeerTransportTlsTest.TypedInbox inbox1 = new PeerTransportTlsTest.TypedInbox();
        PeerTransportTlsTest.TypedInbox inbox2 = new PeerTransportTlsTest.TypedInbox();
        // with both sides requiring SASL, a delivered message is an authenticated one
        PeerTransport t1 = start(1, members, inbox1, "QuorumLearner", "zkquorum/_HOST");
        PeerTransport t2 = start(2, members, inbox2, "QuorumLearner", "zkquorum/_HOST");
        assertTrue(inbox2.awaitBothPorts(t1, 2, WAIT_MS), "1 reaches 2");
        assertTrue(inbox1.awaitBothPorts(t2, 1, WAIT_MS), "2 reaches 1");
    }

    @Test
    void aTicketForAnotherServiceAndALearnerOnAnUnknownHostAreRefused() throws Exception {
        Map<Long, QuorumMember> members = ensemble(3);
        PeerTransportTlsTest.TypedInbox inbox1 = new PeerTransportTlsTest.TypedInbox();
        try (LogCapture log = LogCapture.start()) {
            start(1, members, inbox1, "QuorumLearner", "zkquorum/_HOST");
            PeerTransport wrongService = start(2, members, new PeerTransportTlsTest.TypedInbox(), "QuorumLearner",
                    "otherservice/_HOST");
            PeerTransport unknownHost = start(3, members, new PeerTransportTlsTest.TypedInbox(), "StrangerLearner",
                    "zkquorum/_HOST");
            log.awaitLine(l -> l.contains("says it is member 2") && l.contains("SASL authentication (GSSAPI) failed"),
                    WAIT_MS);
            log.awaitLine(l -> l.contains("says it is member 3") && l.contains("SASL authentication (GSSAPI) failed"),
                    WAIT_MS);
            assertFalse(inbox1.awaitBothPorts(wrongService, 1, REFUSED_WAIT_MS), "a ticket for otherservice/" + HOST);
            assertFalse(inbox1.awaitBothPorts(unknownHost, 1, REFUSED_WAIT_MS), "learner/elsewhere.example.com");
        }
    }
}
