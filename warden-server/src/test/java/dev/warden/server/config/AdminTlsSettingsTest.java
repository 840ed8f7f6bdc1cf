package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The AdminServer's HTTPS keys as zoo.cfg and system properties give them, and the errors a bad set of them gets. */
class AdminTlsSettingsTest {
    @TempDir
    Path dir;
    private final List<String> warnings = new ArrayList<>();

    private ServerConfig load(String... keysAndValues) {
        Properties file = new Properties();
        file.setProperty("dataDir", dir.toString());
        file.setProperty("admin.enableServer", "true");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            file.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return ConfigLoader.fromProperties(file, warnings::add);
    }

    @Test
    void httpsWithoutAKeyStoreIsRefusedNamingTheKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> load("admin.forceHttps", "true"));
        assertEquals("ssl.quorum.keyStore.location", e.key());
        assertTrue(e.getMessage().contains("admin.forceHttps=true"), e.getMessage());
    }

    @Test
    void aKeyStoreThatCannotBeReadIsRefusedAtStartNamingTheKey() throws Exception {
        Path garbage = Files.writeString(dir.resolve("server.p12"), "not a key store");
        ConfigException e = assertThrows(ConfigException.class, () -> load("admin.portUnification", "true",
                "ssl.quorum.keyStore.location", garbage.toString(), "ssl.quorum.keyStore.password", "pw"));
        assertEquals("ssl.quorum.keyStore.location", e.key());
        assertTrue(e.getMessage().contains("PKCS12"), e.getMessage());
    }

    @Test
    void aKeyStoreWhoseTypeCannotBeToldIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> load("admin.forceHttps", "true",
                "ssl.quorum.keyStore.location", dir.resolve("server.keys").toString()));
        assertEquals("ssl.quorum.keyStore.type", e.key());
    }

    @Test
    void clientCertificatesWithoutHttpsOrWithoutATrustStoreAreRefused() {
        assertEquals("admin.needClientAuth", assertThrows(ConfigException.class,
                () -> load("admin.needClientAuth", "true")).key());
        assertEquals("ssl.quorum.trustStore.location", assertThrows(ConfigException.class,
                () -> load("admin.forceHttps", "true", "admin.needClientAuth", "true",
                        "ssl.quorum.keyStore.location", "/etc/ks.jks")).key());
    }

    @Test
    void badIdentityKeysAreRefusedNamingTheKey() {
        assertEquals("ssl.clientCertIdType", assertThrows(ConfigException.class,
                () -> load("ssl.clientCertIdType", "CN")).key());
        assertEquals("ssl.clientCertIdSanMatchRegex", assertThrows(ConfigException.class,
                () -> load("ssl.clientCertIdSanMatchRegex", "(")).key());
        assertEquals("ssl.clientCertIdSanExtractMatcherGroupIndex", assertThrows(ConfigException.class,
                () -> load("ssl.clientCertIdSanExtractRegex", "a(b)", "ssl.clientCertIdSanExtractMatcherGroupIndex",
                        "2")).key());
        assertEquals("admin.forceHttps", assertThrows(ConfigException.class,
                () -> load("admin.forceHttps", "maybe")).key());
    }

    @Test
    void theSwitchesTakeYesAndNoAsEveryBooleanKeyDoes() {
        Properties file = new Properties();
        file.setProperty("dataDir", dir.toString());
        file.setProperty("admin.portUnification", "yes");
        file.setProperty("admin.forceHttps", "no");
        AdminTlsSettings tls = ConfigLoader.fromProperties(file, warnings::add).adminServer().tls();
        assertTrue(tls.portUnification());
        assertFalse(tls.forceHttps());
    }

    @Test
    void theQuorumStoresAreLeftUnreadWhileHttpsIsOff() {
        ServerConfig config = load("ssl.quorum.keyStore.location", "/etc/ks.p12");
        assertEquals(null, config.adminServer().tls().stores());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("ssl.quorum.keyStore.location")
                && warnings.get(0).contains("admin.forceHttps=true"), warnings.toString());
    }

    @Test
    void theKeysAreReadFromZooKeeperSystemPropertiesToo() {
        Properties file = new Properties();
        file.setProperty("dataDir", dir.toString());
        Properties jvm = new Properties();
        jvm.setProperty("zookeeper.admin.portUnification", "true");
        jvm.setProperty("zookeeper.ssl.quorum.trustStore.location", "/etc/ts.p12");
        jvm.setProperty("zookeeper.ssl.clientCertIdType", "SAN");
        jvm.setProperty("zookeeper.X509AuthenticationProvider.superUser", "CN=root");
        ServerConfig config = ConfigLoader.fromProperties(file, jvm, warnings::add);
        AdminTlsSettings tls = config.adminServer().tls();
        assertTrue(tls.portUnification());
        assertEquals(Path.of("/etc/ts.p12"), tls.stores().trustStore().location());
        assertTrue(config.security().x509().useSan());
        assertTrue(config.security().x509().isSuper("CN=root"));
        assertEquals(List.of(), warnings);
    }
}
