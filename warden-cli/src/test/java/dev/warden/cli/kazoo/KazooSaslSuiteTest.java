package dev.warden.cli.kazoo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.FreePorts;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kazoo's own SASL tests, DIGEST-MD5 and GSSAPI, against Warden instead of ZooKeeper, run by
 * {@link KazooHarness} with kazoo's harness and its JAAS file ({@code user_jaasuser="jaas_password"}
 * for DIGEST-MD5). Skipped, saying so, where python3-kazoo, python3-pure-sasl or python3-pytest
 * is missing (and, for GSSAPI, krb5-user or python3-kerberos).
 */
class KazooSaslSuiteTest {
    private static final Path SUITE = Path.of("/usr/lib/python3/dist-packages/kazoo/tests/test_sasl.py");
    private static final String KAZOO_REALM = "KAZOOTEST.ORG";
    private static final String REFUSAL_TESTS = "test_warden_sasl_refusal.py";

    @TempDir
    Path dir;

    /**
     * kazoo's Digest tests but its two {@code test_invalid_sasl_auth}, which race (see
     * {@code kazoo/test_warden_sasl_refusal.py}), and in their place two that ask the same without
     * the race: bad credentials, by sasl_options and by the legacy auth_data, end in AUTH_FAILED.
     */
    @Test
    void kazoosOwnDigestMd5SaslTestsPassAgainstWarden() throws Exception {
        KazooHarness.assumeInstalled(SUITE, "kazoo, puresasl, pytest", "python3-kazoo, python3-pure-sasl and python3-pytest");
        Path refusal = dir.resolve(REFUSAL_TESTS);
        try (InputStream in = KazooSaslSuiteTest.class.getResourceAsStream("/kazoo/" + REFUSAL_TESTS)) {
            Files.copy(in, refusal);
        }
        String log = KazooHarness.runPytest(dir, "test_sasl.py-Digest", 1,
                List.of(SUITE.toString(), refusal.toString(), "-k", "Digest and not test_invalid_sasl_auth"), Map.of());
        assertTrue(log.contains("4 passed"), "kazoo's two Digest connection tests and the two refusal tests"
                + " run and pass (none skipped):\n" + log);
    }

    /**
     * kazoo's GSSAPI tests need a KDC of realm KAZOOTEST.ORG with the principals {@code client} and
     * {@code zookeeper/127.0.0.1}, their keytabs in {@code $KRB5_TEST_ENV}, a krb5.conf in
     * {@code $KRB5_CONFIG} that both MIT's kinit (which the tests call) and the server's JVM read,
     * and python3-kerberos. The KDC is Apache Kerby's, started here; the credential cache is a file
     * of this test's, so nothing outside its directory changes.
     */
    @Test
    void kazoosOwnGssapiSaslTestsPassAgainstWarden() throws Exception {
        KazooHarness.assumeInstalled(SUITE, "kazoo, puresasl, pytest", "python3-kazoo, python3-pure-sasl and python3-pytest");
        boolean kerberos = Files.isExecutable(Path.of("/usr/bin/kinit"))
                && new ProcessBuilder(KazooHarness.PYTHON, "-c", "import kerberos").start().waitFor() == 0;
        Assumptions.assumeTrue(kerberos, "kazoo's GSSAPI tests need krb5-user (kinit) and python3-kerberos"
                + " (apt-get install, as root); skipped");
        Path env = Files.createDirectories(dir.resolve("krb5"));
        SimpleKdcServer kdc = new SimpleKdcServer();
        kdc.setWorkDir(Files.createDirectories(env.resolve("kdc")).toFile());
        kdc.setKdcRealm(KAZOO_REALM);
        kdc.setKdcHost("127.0.0.1");
        kdc.setAllowUdp(false);
        kdc.setKdcTcpPort(FreePorts.pick());
        kdc.init();
        kdc.start();
        try {
            kdc.createAndExportPrincipals(env.resolve("client.keytab").toFile(), "client");
            kdc.createAndExportPrincipals(env.resolve("server.keytab").toFile(), "zookeeper/127.0.0.1");
            Path krb5Conf = Files.writeString(env.resolve("krb5.conf"), krb5Conf(kdc.getKdcTcpPort()));
            String log = KazooHarness.runPytest(dir, "test_sasl.py-GSSAPI", 1, List.of(SUITE.toString(), "-k", "GSSAPI"), Map.of(
                    "KRB5_TEST_ENV", env.toString(),
                    "KRB5_CONFIG", krb5Conf.toString(),
                    "KRB5CCNAME", "FILE:" + env.resolve("ccache")));
            assertTrue(log.contains("2 passed"), "both GSSAPI tests run and pass (none skipped):\n" + log);
        } finally {
            kdc.stop();
        }
    }

    /**
     * TCP only (Kerby listens on TCP here), no DNS: the tests name the server by address, and its
     * principal is {@code zookeeper/127.0.0.1}, so the host must not be canonicalised.
     */
    private static String krb5Conf(int kdcPort) {
        return "[libdefaults]\n"
                + "  default_realm = " + KAZOO_REALM + "\n"
                + "  udp_preference_limit = 1\n"
                + "  dns_lookup_realm = false\n"
                + "  dns_lookup_kdc = false\n"
                + "  dns_canonicalize_hostname = false\n"
                + "  rdns = false\n"
                + "[realms]\n"
                + "  " + KAZOO_REALM + " = {\n"
                + "    kdc = 127.0.0.1:" + kdcPort + "\n"
                + "  }\n"
                + "[domain_realm]\n"
                + "  127.0.0.1 = " + KAZOO_REALM + "\n";
    }
}
