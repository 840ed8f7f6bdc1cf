package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadClientTls;
import dev.warden.bench.load.LoadClient;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone TLS deployment of each server starts with certificates made at run time and serves a
 * session over TLS, and only over TLS, on the port the load is sent to.
 */
class TlsDeploymentTest {
    private static final long READY_TIMEOUT_MS = 120_000;
    private static final int SESSION_TIMEOUT_MS = 15_000;
    private static final JvmSettings JVM = JvmSettings.ofThisJvm(128);

    @TempDir
    Path dir;

    @Test
    void keytoolMakesAStoreWhoseCertificateNamesLoopback() throws Exception {
        TlsMaterial tls = TlsMaterial.create(dir, JVM.javaExecutable());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(tls.keyStore())) {
            keys.load(in, tls.password().toCharArray());
        }
        X509Certificate certificate = (X509Certificate) keys.getCertificate("bench");
        assertTrue(certificate.getSubjectAlternativeNames().stream().anyMatch(name -> name.get(1).equals("127.0.0.1")),
                certificate::toString);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(tls.trustStore())) {
            trust.load(in, tls.password().toCharArray());
        }
        assertEquals(certificate, trust.getCertificate("bench-ca"));
    }

    @Test
    void eachFlavourServesOneTlsSessionOnItsSecurePort() throws Exception {
        for (Flavour flavour : Flavour.values()) {
            try (Deployment deployment = Deployment.start(flavour, Topology.STANDALONE_TLS,
                    dir.resolve(flavour.name()), JVM, READY_TIMEOUT_MS)) {
                LoadClientTls tls = deployment.clientTls();
                assertTrue(tls.enabled(), flavour::name);
                for (ClientKind client : List.of(ClientKind.APACHE, ClientKind.WARDEN)) {
                    try (LoadClient session = client.connect(deployment.connectString(), SESSION_TIMEOUT_MS, 1 << 20,
                            tls)) {
                        CompletableFuture<Integer> created = new CompletableFuture<>();
                        session.create("/tls-smoke-" + client.name(), new byte[] {1}, false,
                                (rc, path) -> created.complete(rc));
                        assertEquals(0, created.get(SESSION_TIMEOUT_MS, TimeUnit.MILLISECONDS),
                                flavour + " with the " + client.description());
                    }
                }
                // the same port refuses a plaintext session: the load above really ran over TLS
                assertThrows(IOException.class, () -> ClientKind.APACHE.connect(deployment.connectString(), 3000,
                        1 << 20, LoadClientTls.NONE).close(), flavour::name);
            }
        }
    }
}
