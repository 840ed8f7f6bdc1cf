package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS lines of a member's zoo.cfg: the same stores and settings for both servers, each in its own keys. */
class MemberConfigTlsTest {
    private static final TlsMaterial TLS = new TlsMaterial(Path.of("/certs/key.p12"), Path.of("/certs/trust.p12"),
            "s3cret");

    @TempDir
    Path dir;

    @Test
    void bothFlavoursGetTheClientPortStoresMutualTlsAndTls13() {
        for (Flavour flavour : Flavour.values()) {
            Map<String, String> keys = parse(MemberConfig.tlsLines(flavour, TLS, false));
            assertEquals("/certs/key.p12", keys.get("ssl.keyStore.location"), flavour::name);
            assertEquals("s3cret", keys.get("ssl.keyStore.password"), flavour::name);
            assertEquals("PKCS12", keys.get("ssl.keyStore.type"), flavour::name);
            assertEquals("/certs/trust.p12", keys.get("ssl.trustStore.location"), flavour::name);
            assertEquals("s3cret", keys.get("ssl.trustStore.password"), flavour::name);
            assertEquals("PKCS12", keys.get("ssl.trustStore.type"), flavour::name);
            assertEquals("need", keys.get("ssl.clientAuth"), flavour::name);
            assertEquals("TLSv1.3", keys.get("ssl.protocol"), flavour::name);
            assertFalse(keys.containsKey("sslQuorum"), "a standalone member has no quorum: " + keys);
            assertTrue(keys.keySet().stream().noneMatch(k -> k.startsWith("ssl.quorum.")), keys::toString);
        }
    }

    @Test
    void apacheTakesTlsOnlyThroughItsNettyFactoryOnTheSameEngineAsWarden() {
        Map<String, String> apache = parse(MemberConfig.tlsLines(Flavour.APACHE, TLS, false));
        assertEquals("org.apache.zookeeper.server.NettyServerCnxnFactory", apache.get("serverCnxnFactory"));
        assertEquals("OPENSSL", apache.get("ssl.sslProvider"));
        Map<String, String> warden = parse(MemberConfig.tlsLines(Flavour.WARDEN, TLS, false));
        assertFalse(warden.containsKey("serverCnxnFactory"), warden::toString);
        assertFalse(warden.containsKey("ssl.sslProvider"), warden::toString);
    }

    @Test
    void ensembleMembersRunTheQuorumOnTlsWithTheSameStores() {
        for (Flavour flavour : Flavour.values()) {
            Map<String, String> keys = parse(MemberConfig.tlsLines(flavour, TLS, true));
            assertEquals("true", keys.get("sslQuorum"), flavour::name);
            assertEquals("/certs/key.p12", keys.get("ssl.quorum.keyStore.location"), flavour::name);
            assertEquals("s3cret", keys.get("ssl.quorum.keyStore.password"), flavour::name);
            assertEquals("PKCS12", keys.get("ssl.quorum.keyStore.type"), flavour::name);
            assertEquals("/certs/trust.p12", keys.get("ssl.quorum.trustStore.location"), flavour::name);
            assertEquals("s3cret", keys.get("ssl.quorum.trustStore.password"), flavour::name);
            assertEquals("PKCS12", keys.get("ssl.quorum.trustStore.type"), flavour::name);
            assertEquals("TLSv1.3", keys.get("ssl.quorum.protocol"), flavour::name);
            assertEquals("/certs/key.p12", keys.get("ssl.keyStore.location"), "the client port too: " + flavour);
        }
    }

    @Test
    void aStandaloneTlsConfigKeepsThePlaintextPortAndAddsTheSecureOne() throws Exception {
        List<String> extra = new java.util.ArrayList<>(List.of("secureClientPort=20002"));
        extra.addAll(MemberConfig.tlsLines(Flavour.WARDEN, TLS, false));
        Path config = MemberConfig.writeStandalone(Flavour.WARDEN, dir, 20001, 4 << 20, extra);
        Map<String, String> keys = parse(Files.readAllLines(config, StandardCharsets.UTF_8));
        assertEquals("20001", keys.get("clientPort"));
        assertEquals("20002", keys.get("secureClientPort"));
        assertEquals("/certs/key.p12", keys.get("ssl.keyStore.location"));
        assertEquals("*", keys.get("4lw.commands.whitelist"), "readiness is asked on the plaintext port");
    }

    @Test
    void tlsTopologiesAreNamedOnTheCommandLineAndPlaintextOnesStayPlaintext() {
        assertEquals(Topology.ENSEMBLE3_TLS, Topology.parse("ensemble3-tls"));
        assertEquals(Topology.STANDALONE_TLS, Topology.parse("standalone-tls"));
        assertTrue(Topology.ENSEMBLE3_TLS.tls());
        assertEquals(3, Topology.ENSEMBLE3_TLS.members());
        assertFalse(Topology.ENSEMBLE3.tls());
        assertFalse(Topology.STANDALONE.tls());
    }

    @Test
    void thePasswordIsNotPrinted() {
        assertFalse(TLS.toString().contains("s3cret"), TLS::toString);
        assertFalse(Deployment.clientTls(TLS).toString().contains("s3cret"));
    }

    /** key=value lines into a map; a key written twice fails the test (the last would silently win). */
    private static Map<String, String> parse(List<String> lines) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String line : lines) {
            int eq = line.indexOf('=');
            assertTrue(eq > 0, "not key=value: " + line);
            String old = keys.put(line.substring(0, eq), line.substring(eq + 1));
            assertEquals(null, old, "written twice: " + line);
        }
        return keys;
    }
}
