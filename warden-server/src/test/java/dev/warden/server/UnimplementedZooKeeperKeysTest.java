package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a zoo.cfg holding a ZooKeeper key Warden does not implement gets: a refusal, a warning or nothing. */
class UnimplementedZooKeeperKeysTest {
    private final List<String> warnings = new ArrayList<>();

    private ServerConfig parse(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return ConfigLoader.fromProperties(p, warnings::add);
    }

    /** key | a value that is refused | the value meaning "off", accepted silently | what the refusal says Warden does. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "secureClientPort|2281|0|serves plaintext clients on clientPort only",
            "secureClientPortAddress|0.0.0.0||serves plaintext clients on clientPort only",
            "client.portUnification|true|false|does not support TLS yet",
            "sslQuorum|true|false|peer connections are plaintext",
            "sslQuorum|yes|no|peer connections are plaintext",
            "portUnification|TRUE|FALSE|peer connections are plaintext only",
            "authProvider.1|org.apache.zookeeper.server.auth.SASLAuthenticationProvider"
                    + "|org.apache.zookeeper.server.auth.DigestAuthenticationProvider|built-in digest and ip schemes",
            "authProvider.x509|org.apache.zookeeper.server.auth.X509AuthenticationProvider"
                    + "|org.apache.zookeeper.server.auth.IPAuthenticationProvider|built-in digest and ip schemes",
            "enforce.auth.enabled|true|false|serves clients that have not authenticated",
            "sessionRequireClientSASLAuth|true|false|serves clients that have not authenticated",
            "requireClientAuthScheme|sasl||serves clients that have not authenticated",
            "quorum.auth.enableSasl|true|false|members do not authenticate their peers",
            "quorum.auth.learnerRequireSasl|true|false|members do not authenticate their peers",
            "quorum.auth.serverRequireSasl|true|false|members do not authenticate their peers",
            "skipACL|yes|no|always checks ACLs",
            "skipACL|true|false|always checks ACLs",
            "DigestAuthenticationProvider.enabled|false|true|always accepts digest credentials",
            "DigestAuthenticationProvider.digestAlg|SHA3-256|SHA-1|uses SHA-1",
            "enforceQuota|true|false|does not enforce quotas",
            "audit.enable|true|false|no audit log",
            "electionAlg|1|3|accepts only 3",
            "electionAlg|fast|3|accepts only 3",
            "oraclePath|/var/zk/oracle||counts a plain majority of voters",
            "multiAddress.enabled|true|false|one address per member",
            "datadir.autocreate|false|true|creates missing directories",
            "db.autocreate|false|true|lets it vote at once"})
    void keysWhoseBeingIgnoredWouldChangeMeaningAreRefusedUnlessOff(String key, String refused, String off,
                                                                    String wardenDoes) {
        for (String spelling : List.of(key, "zookeeper." + key)) {
            ConfigException e = assertThrows(ConfigException.class, () -> parse(spelling, refused), spelling);
            assertEquals(spelling, e.key());
            assertTrue(e.getMessage().startsWith(spelling + "=" + refused + ": "), e.getMessage());
            assertTrue(e.getMessage().contains(wardenDoes), e.getMessage());
            if (off != null) {
                assertEquals(ServerConfig.builder().build(), parse(spelling, " " + off + " "), spelling);
            }
        }
        assertEquals(List.of(), warnings);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "leaderServes|no|Warden's leader always serves clients",
            "zookeeper.leaderServes|no|Warden's leader always serves clients",
            "syncEnabled|false|always log and snapshot",
            "quorumListenOnAllIPs|true|own server line",
            "cnxTimeout|5000|election and peer-connection tuning",
            "fastleader.maxNotificationInterval|60000|election and peer-connection tuning",
            "snapshot.compression.method|snappy|uncompressed",
            "snapshot.trust.empty|true|never starts from a log whose snapshot is missing",
            "maxCnxns|100|not in total",
            "clientPortListenBacklog|50|listen backlog",
            "admin.serverPort|8080|no AdminServer",
            "admin.enableServer|true|no AdminServer",
            "metricsProvider.className|org.example.Prometheus|no metrics providers",
            "metricsProvider.httpPort|7000|no metrics providers",
            "jvm.pause.monitor|true|JVM pause monitor",
            "localSessionsEnabled|true|global session",
            "readonlymode.enabled|true|no read-only mode",
            "ssl.quorum.keyStore.location|/etc/ks.jks|Warden has no TLS",
            "ssl.clientAuth|need|Warden has no TLS",
            "sslQuorumReloadCertFiles|true|Warden has no TLS",
            "quorum.auth.kerberos.servicePrincipal|zk/host|Warden has no SASL",
            "kerberos.removeHostFromPrincipal|true|Warden has no SASL",
            "jaasLoginRenew|3600000|Warden has no SASL",
            "superUser|admin|Warden has no SASL",
            "enforce.auth.schemes|sasl|only with enforce.auth.enabled=true",
            "audit.impl.class|org.example.Audit|only with audit.enable=true",
            "multiAddress.reachabilityCheckTimeoutMs|1000|only with multiAddress.enabled=true",
            "connection_throttle_tokens|100|throttling",
            "requestThrottleLimit|100|throttling",
            "watchManagerName|WatchManagerOptimized|watch manager",
            "commitProcessor.numWorkerThreads|4|tuning",
            "snapSizeLimitInKb|1024|its own formats",
            "znode.container.maxNeverUsedIntervalMs|1000|never had children",
            "forceSnapshotSync|true|test hook"})
    void harmlessKeysAreWarnedAboutNamingWhyTheyDoNothing(String key, String value, String why) {
        assertEquals(ServerConfig.builder().build(), parse(key, value));
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("ignoring '" + key + "': "), warnings.get(0));
        assertTrue(warnings.get(0).contains(why), warnings.get(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"admin.enableServer", "zookeeper.admin.enableServer"})
    void turningTheAdminServerOffNeedsNoWarning(String key) {
        parse(key, "false");
        assertEquals(List.of(), warnings);
    }

    @Test
    void aRefusedKeyIsReportedBeforeTheMemberLinesItExplains() {
        Properties p = new Properties();
        p.setProperty("multiAddress.enabled", "true");
        p.setProperty("server.1", "a1:1:2|a2:1:2");
        p.setProperty("server.2", "b:1:2");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.fromProperties(p, warnings::add));
        assertEquals("multiAddress.enabled", e.key());
    }

    @Test
    void keysZooKeeperDoesNotKnowStayUnknown() {
        parse("tickTme", "2000");
        assertEquals(List.of("ignoring unknown configuration key 'tickTme'"), warnings);
    }

    @Test
    void docsConfigListsEveryClassifiedKey() throws IOException {
        String docs = Files.readString(Path.of("..", "docs", "CONFIG.md"), StandardCharsets.UTF_8);
        String table = docs.substring(docs.indexOf("## ZooKeeper keys Warden does not implement"));
        List<String> missing = new ArrayList<>();
        for (String key : UnimplementedZooKeeperKeys.documentedKeys()) {
            if (!table.contains("`" + key + "`") && !table.contains("`" + key + "=")) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "keys classified in code but not in docs/CONFIG.md");
    }
}
