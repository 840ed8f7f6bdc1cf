package dev.warden.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kazoo (Python) over TLS with its own TLS options: certfile, keyfile, ca, verify_certs. */
class KazooTlsTest {
    @TempDir
    Path dir;

    static final String SCRIPT = """
            import sys
            from kazoo.client import KazooClient
            from kazoo.security import make_acl
            port, pem, ca, dn, wait = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
            zk = KazooClient(hosts="127.0.0.1:" + port, use_ssl=True, certfile=pem, keyfile=pem, ca=ca,
                             verify_certs=True, timeout=10)
            zk.start(timeout=wait)
            zk.create("/kazoo-tls", b"over tls", acl=[make_acl("x509", dn, all=True)])
            data, stat = zk.get("/kazoo-tls")
            print("read:" + data.decode())
            print("acl:" + zk.get_acls("/kazoo-tls")[0][0].id.scheme)
            zk.stop()
            """;

    @Test
    void kazooConnectsWithACertificateAndUsesItsIdentity() throws Exception {
        Kazoo.assumeInstalled();
        TestPki ca = TestPki.create(dir.resolve("pki"), "kazoo-ca");
        Path serverStore = ca.keyStore(ca.issue("server"), TestPki.StoreType.JKS);
        Path trust = ca.trustStore(TestPki.StoreType.PEM);
        TlsSettings tls = TlsSettings.parse("ssl.", Map.of("ssl.keyStore.location", serverStore.toString(),
                "ssl.keyStore.password", TestPki.PASSWORD, "ssl.trustStore.location", trust.toString())::get);
        SecurityConfig security = new SecurityConfig(FreePorts.pick(), null, false, tls, true, X509Identities.DEFAULT,
                false, false, null, true, SaslSettings.NONE, AuthEnforcement.OFF, QuorumSaslSettings.OFF);
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("data"))
                .clientPort(0).security(security).build())) {
            TestPki.Issued kazoo = ca.issue("kazoo");
            Path pem = ca.keyStore(kazoo, TestPki.StoreType.PEM);
            String dn = kazoo.certificate().getSubjectX500Principal().getName();
            Kazoo.Result result = Kazoo.script(dir, SCRIPT, Integer.toString(server.secureClientPort()),
                    pem.toString(), trust.toString(), dn, "10");
            assertEquals(0, result.exitCode(), result.output());
            assertTrue(result.output().contains("read:over tls"), result.output());
            assertTrue(result.output().contains("acl:x509"), result.output());
            // an untrusted client certificate is refused
            TestPki rogue = TestPki.create(dir.resolve("rogue"), "rogue-ca");
            Path roguePem = rogue.keyStore(rogue.issue("intruder"), TestPki.StoreType.PEM);
            Kazoo.Result refused = Kazoo.script(dir, SCRIPT, Integer.toString(server.secureClientPort()),
                    roguePem.toString(), trust.toString(), dn, "2");
            assertNotEquals(0, refused.exitCode(), refused.output());
        }
    }
}
