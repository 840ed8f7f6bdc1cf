package dev.warden.server.config;

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
            "requireClientAuthScheme|sasl||enforce.auth.enabled with enforce.auth.schemes",
            "DigestAuthenticationProvider.enabled|false|true|always accepts digest credentials",
            "DigestAuthenticationProvider.digestAlg|SHA3-256|SHA-1|uses SHA-1",
            "electionAlg|1|3|accepts only 3",
            "electionAlg|fast|3|accepts only 3",
            "oraclePath|/var/zk/oracle||has no oracle",
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
            "cnxTimeout|5000|election and peer-connection tuning",
            "fastleader.maxNotificationInterval|60000|election and peer-connection tuning",
            "snapshot.compression.method|snappy|uncompressed",
            "snapshot.trust.empty|true|never starts from a log whose snapshot is missing",
            "maxCnxns|100|not in total",
            "clientPortListenBacklog|50|listen backlog",
            "admin.httpVersion|11|no custom headers, HTTP versions",
            "metricsProvider.prometheusMetricsSummaryRotateIntervalSeconds|30|its Prometheus endpoint takes",
            "jvm.pause.monitor|true|JVM pause monitor",
            "audit.impl.class|org.example.Audit|loads no audit logger class",
            "jaasLoginRenew|3600000|SASL/Kerberos setting Warden does not read",
            "ssl.context.supplier.class|org.example.Supplier|TLS setting Warden does not read",
            "fips-mode|false|TLS setting Warden does not read",
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

    @Test
    void aRefusedKeyIsReportedBeforeTheMemberLinesItExplains() {
        Properties p = new Properties();
        p.setProperty("oraclePath", "/var/zk/oracle");
        p.setProperty("server.1", "a1:1:2|a2:1:2");
        p.setProperty("server.2", "b:1:2");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.fromProperties(p, warnings::add));
        assertEquals("oraclePath", e.key());
    }

    @Test
    void keysZooKeeperDoesNotKnowStayUnknown() {
        parse("tickTme", "2000");
        assertEquals(List.of("ignoring unknown configuration key 'tickTme'"), warnings);
    }
}
