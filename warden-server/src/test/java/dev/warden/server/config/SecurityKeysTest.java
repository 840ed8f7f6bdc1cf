package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.tls.StoreFile;
import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.SecurityConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The security keys in zoo.cfg, under both spellings and as system properties, and their errors. */
class SecurityKeysTest {
    @TempDir
    Path dir;
    private final List<String> warnings = new ArrayList<>();

    private SecurityConfig read(Map<String, String> file, Map<String, String> system) {
        Properties p = new Properties();
        p.putAll(file);
        return SecurityKeys.apply(p, new HashSet<>(), system::get);
    }

    private ServerConfig load(Map<String, String> file) {
        Properties p = new Properties();
        p.putAll(file);
        return ConfigLoader.fromProperties(p, warnings::add);
    }

    @Test
    void clientTlsKeysInEitherSpellingOrAsSystemProperties() throws Exception {
        Path passwordFile = Files.writeString(dir.resolve("pw"), "from-a-file\n");
        SecurityConfig fromFile = read(Map.of("secureClientPort", "2281", "zookeeper.ssl.keyStore.location", "/k.p12",
                "ssl.keyStore.passwordPath", passwordFile.toString(), "ssl.trustStore.location", "/t.pem",
                "ssl.clientAuth", "want", "ssl.enabledProtocols", "TLSv1.2", "ssl.ciphersuites",
                "TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384"), Map.of());
        TlsSettings tls = fromFile.clientTls();
        assertEquals(2281, fromFile.secureClientPort());
        assertEquals(StoreFile.StoreType.PKCS12, tls.keyStore().type());
        assertEquals("from-a-file", tls.keyStore().password().reveal());
        assertEquals(StoreFile.StoreType.PEM, tls.trustStore().type());
        assertEquals(TlsSettings.ClientAuth.WANT, tls.clientAuth());
        assertEquals(List.of("TLSv1.2"), tls.enabledProtocols());
        assertEquals(List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"), tls.cipherSuites());
        SecurityConfig fromSystem = read(Map.of("secureClientPort", "2281"), Map.of(
                "zookeeper.ssl.keyStore.location", "/k.jks", "zookeeper.ssl.keyStore.password", "pw"));
        assertEquals(StoreFile.StoreType.JKS, fromSystem.clientTls().keyStore().type());
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), fromSystem.clientTls().enabledProtocols());
        // the file wins over a system property
        SecurityConfig both = read(Map.of("secureClientPort", "2281", "ssl.keyStore.location", "/file.jks"),
                Map.of("zookeeper.ssl.keyStore.location", "/system.jks"));
        assertEquals(Path.of("/file.jks"), both.clientTls().keyStore().location());
    }

    @Test
    void badSettingsNameTheKeyAndTheWayOut() {
        assertRefused("ssl.keyStore.location", Map.of("secureClientPort", "2281"));
        assertRefused("secureClientPort", Map.of("secureClientPort", "70000"));
        assertRefused("ssl.clientAuth", Map.of("client.portUnification", "true", "ssl.keyStore.location", "/k.jks",
                "ssl.clientAuth", "sometimes"));
        assertRefused("ssl.keyStore.type", Map.of("secureClientPort", "2281", "ssl.keyStore.location", "/k.store"));
        assertRefused("ssl.quorum.trustStore.location", Map.of("sslQuorum", "true", "ssl.quorum.keyStore.location",
                "/k.jks"));
        assertRefused("ssl.quorum.keyStore.location", Map.of("portUnification", "true",
                "ssl.quorum.trustStore.location", "/t.jks"));
        assertRefused("ssl.quorum.clientAuth", Map.of("sslQuorum", "true", "ssl.quorum.keyStore.location", "/k.jks",
                "ssl.quorum.trustStore.location", "/t.jks", "ssl.quorum.clientAuth", "sometimes"));
        assertRefused("authProvider.1", Map.of("authProvider.1", "com.example.MyProvider"));
        assertRefused("enforce.auth.enabled", Map.of("enforce.auth.enabled", "true"));
        assertRefused("enforce.auth.schemes", Map.of("enforce.auth.enabled", "true", "enforce.auth.schemes",
                "kerberos"));
        assertRefused("sessionRequireClientSASLAuth", Map.of("sessionRequireClientSASLAuth", "true"));
        assertRefused("quorum.auth.learnerRequireSasl", Map.of("quorum.auth.learnerRequireSasl", "true"));
        assertRefused("ssl.keyStore.location", Map.of("ssl.keyStore.location", "/a.jks",
                "zookeeper.ssl.keyStore.location", "/b.jks"));
    }

    private void assertRefused(String key, Map<String, String> file) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(file), file.toString());
        assertTrue(e.getMessage().contains(key), e.getMessage());
        assertTrue(e.getMessage().length() > key.length() + 20, "says why: " + e.getMessage());
    }

    @Test
    void quorumTlsKeysAreReadUnderTheirOwnPrefix() {
        SecurityConfig quorum = read(Map.of("sslQuorum", "true", "ssl.quorum.keyStore.location", "/member.p12",
                "ssl.quorum.keyStore.password", "pw", "ssl.quorum.trustStore.location", "/ca.pem",
                "ssl.quorum.hostnameVerification", "false", "ssl.quorum.enabledProtocols", "TLSv1.2",
                "ssl.quorum.ciphersuites", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ssl.keyStore.location",
                "/client-side.jks"), Map.of("zookeeper.ssl.quorum.crl", "true"));
        assertTrue(quorum.sslQuorum());
        assertFalse(quorum.quorumPortUnification());
        TlsSettings tls = quorum.quorumTls();
        assertEquals(Path.of("/member.p12"), tls.keyStore().location());
        assertEquals(StoreFile.StoreType.PEM, tls.trustStore().type());
        assertFalse(tls.hostnameVerification());
        assertFalse(tls.clientHostnameVerification());
        assertEquals(List.of("TLSv1.2"), tls.enabledProtocols());
        assertEquals(List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"), tls.cipherSuites());
        assertTrue(tls.crl());
        assertEquals(TlsSettings.ClientAuth.NEED, tls.clientAuth());
        assertEquals(null, quorum.clientTls(), "the client port's ssl.* keys are another side's");
        SecurityConfig unified = read(Map.of("portUnification", "true", "ssl.quorum.keyStore.location", "/m.jks",
                "ssl.quorum.trustStore.location", "/t.jks"), Map.of());
        assertFalse(unified.sslQuorum());
        assertTrue(unified.quorumPortUnification());
    }

    @Test
    void quorumSaslKeysAreReadWithZooKeepersDefaults() {
        SecurityConfig defaults = read(Map.of("quorum.auth.enableSasl", "true", "java.security.auth.login.config",
                "/jaas.conf"), Map.of());
        QuorumSaslSettings sasl = defaults.quorumSasl();
        assertTrue(sasl.enabled());
        assertFalse(sasl.learnerRequireSasl());
        assertFalse(sasl.serverRequireSasl());
        assertEquals("zkquorum/localhost", sasl.servicePrincipal());
        assertEquals("QuorumLearner", sasl.learnerLoginContext());
        assertEquals("QuorumServer", sasl.serverLoginContext());
        SecurityConfig set = read(Map.of("quorum.auth.enableSasl", "true", "quorum.auth.learnerRequireSasl", "true",
                "quorum.auth.serverRequireSasl", "true", "quorum.auth.kerberos.servicePrincipal", "zkquorum/_HOST",
                "quorum.auth.learner.saslLoginContext", "Learner", "quorum.auth.server.saslLoginContext", "Server",
                "quorum.cnxn.threads.size", "20"), Map.of("java.security.auth.login.config", "/jaas.conf"));
        assertEquals(new QuorumSaslSettings(true, true, true, "zkquorum/_HOST", "Learner", "Server"),
                set.quorumSasl());
        assertRefused("java.security.auth.login.config", Map.of("quorum.auth.enableSasl", "true"));
        assertRefused("quorum.cnxn.threads.size", Map.of("quorum.cnxn.threads.size", "0"));
        warnings.clear();
        load(Map.of("quorum.cnxn.threads.size", "20"));
        assertEquals(List.of(), warnings, "a valid pool size is read, not warned about");
    }

    @Test
    void zooKeepersOwnProvidersAreAcceptedSilently() {
        load(Map.of("authProvider.1", "org.apache.zookeeper.server.auth.SASLAuthenticationProvider",
                "authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider",
                "zookeeper.authProvider.2", "org.apache.zookeeper.server.auth.DigestAuthenticationProvider"));
        assertEquals(List.of(), warnings);
    }

    @Test
    void confHidesPasswordsAndTheConfigReadsBackEqual() {
        ServerConfig config = load(Map.of("secureClientPort", "2281", "ssl.keyStore.location", "/k.p12",
                "ssl.keyStore.password", "hunter2-keystore", "ssl.trustStore.location", "/t.jks",
                "ssl.trustStore.password", "hunter2-truststore", "ssl.clientCertIdType", "SAN",
                "ssl.clientCertIdSanMatchType", "2", "X509AuthenticationProvider.superUser", "admin"));
        String conf = config.describe();
        assertFalse(conf.contains("hunter2"), conf);
        assertTrue(conf.contains("ssl.keyStore.password=<hidden>"), conf);
        assertTrue(conf.contains("secureClientPort=2281"), conf);
        assertFalse(config.security().toString().contains("hunter2"), config.security().toString());
        assertEquals(config, ConfigLoader.fromProperties(config.toProperties(), warnings::add));
        assertEquals(List.of(), warnings);
    }
}
