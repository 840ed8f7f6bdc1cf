package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.warden.server.ApacheClients;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.admin.JettyAdminServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper 3.9's AdminServer (Jetty, in process) and Warden's, after the same client history:
 * the same command names, the same JSON fields, the same values where the state is the same, the
 * same authentication answers for snapshot and restore; and Warden's streamed snapshot starts a
 * server holding the data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminServerDifferentialTest {
    /** The suites' super digest: the in-process Apache servers share one per JVM. */
    private static final String SUPER_DIGEST = Targets.superDigest();
    /**
     * ZooKeeper fields Warden does not give: mTLS connection counts (Warden has no TLS) and a
     * flag about ZooKeeper's internal stats provider.
     */
    private static final Set<String> APACHE_ONLY_FIELDS = Set.of("server_stats.non_mtlsremote_conn_count",
            "server_stats.non_mtlslocal_conn_count", "server_stats.provider_null");
    /** Objects whose keys are data (session ids, paths, member ids), not field names. */
    private static final Set<String> KEYED_BY_DATA = Set.of("expiry_time_to_session_ids",
            "session_id_to_ephemeral_paths", "session_id_to_watched_paths", "path_to_session_ids", "current_config");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ApacheTarget apache;
    private JettyAdminServer apacheAdmin;
    private WardenServer warden;
    private final List<ZooKeeper> clients = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String apacheUrl;
    private String wardenUrl;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        this.dir = dir;
        apache = ApacheTarget.start(dir.resolve("apache"), SUPER_DIGEST);
        int apachePort = FreePorts.pick();
        apacheAdmin = new JettyAdminServer("127.0.0.1", apachePort, 30_000, "/commands", 1024, false, false, false);
        apacheAdmin.setZooKeeperServer(apache.server());
        apacheAdmin.start();
        apacheUrl = "http://127.0.0.1:" + apachePort + "/commands";
        warden = WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("warden")).clientPort(0)
                .superDigest(SUPER_DIGEST).fourLetterWordWhitelist(Set.of("*"))
                .adminServer(AdminServerSettings.DEFAULTS.withEnabled(true).withPort(0)).build());
        wardenUrl = "http://127.0.0.1:" + warden.adminServerPort() + "/commands";
        for (String connect : List.of(apache.connectString(), warden.connectString())) {
            ZooKeeper zk = ApacheClients.connect(connect);
            clients.add(zk);
            zk.create("/eph", new byte[3], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            zk.create("/kept", "backed up".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.exists("/watched", true);
        }
    }

    @AfterAll
    void stop() throws Exception {
        for (ZooKeeper zk : clients) {
            zk.close();
        }
        if (warden != null) {
            warden.close();
        }
        if (apacheAdmin != null) {
            apacheAdmin.shutdown();
        }
        if (apache != null) {
            apache.close();
        }
    }

    @Test
    void bothListTheSameCommands() throws Exception {
        assertEquals(get(apacheUrl).body(), get(wardenUrl).body());
    }

    @Test
    void everyCommandAnswersWithZooKeepersFields() throws Exception {
        List<String> commands = List.of("ruok", "configuration", "connection_stat_reset", "connections", "dirs",
                "dump", "environment", "get_trace_mask", "hash", "initial_configuration", "is_read_only",
                "last_snapshot", "leader", "observer_connection_stat_reset", "observers", "server_stats", "stats",
                "stat_reset", "voting_view", "watch_summary", "watches", "watches_by_path", "zabstate",
                "set_trace_mask?traceMask=306", "nosuch");
        for (String command : commands) {
            HttpResponse<String> apacheAnswer = get(apacheUrl + "/" + command);
            HttpResponse<String> wardenAnswer = get(wardenUrl + "/" + command);
            assertEquals(apacheAnswer.statusCode(), wardenAnswer.statusCode(), command);
            JsonNode expected = JSON.readTree(apacheAnswer.body());
            JsonNode actual = JSON.readTree(wardenAnswer.body());
            Set<String> missing = fields(expected, "");
            missing.removeAll(fields(actual, ""));
            missing.removeAll(APACHE_ONLY_FIELDS);
            assertEquals(Set.of(), missing, command + ": fields ZooKeeper gives and Warden does not");
            assertEquals(expected.get("command"), actual.get("command"), command);
            assertEquals(expected.get("error"), actual.get("error"), command);
        }
    }

    @Test
    void aliasesAndMonitorWork() throws Exception {
        for (String alias : List.of("mntr", "srvr", "stat", "cons", "conf", "wchs", "isro", "gtmk")) {
            JsonNode answer = JSON.readTree(get(wardenUrl + "/" + alias).body());
            assertTrue(answer.get("error").isNull(), alias + ": " + answer);
        }
        JsonNode apacheMonitor = JSON.readTree(get(apacheUrl + "/monitor").body());
        JsonNode wardenMonitor = JSON.readTree(get(wardenUrl + "/monitor").body());
        Set<String> invented = fields(wardenMonitor, "");
        invented.removeAll(fields(apacheMonitor, ""));
        invented.removeAll(Set.of("tree_digest", "fsync_threshold_exceed_count"));
        assertEquals(Set.of(), invented, "monitor fields ZooKeeper does not have");
        for (String key : List.of("server_state", "watch_count", "ephemerals_count", "global_sessions")) {
            assertEquals(apacheMonitor.get(key), wardenMonitor.get(key), key);
        }
    }

    @Test
    void theSameStateGivesTheSameValues() throws Exception {
        for (String command : List.of("is_read_only", "watch_summary", "voting_view", "zabstate", "leader")) {
            assertEquals(JSON.readTree(get(apacheUrl + "/" + command).body()),
                    JSON.readTree(get(wardenUrl + "/" + command).body()), command);
        }
    }

    @Test
    void restoreRefusesABodyThatIsNotASnapshot() throws Exception {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(wardenUrl + "/restore"))
                .header("Authorization", "digest " + Targets.SUPER_AUTH).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, answer.statusCode());
        assertTrue(JSON.readTree(answer.body()).get("error").asText().contains("nothing was restored"), answer.body());
    }

    @Test
    void snapshotAndRestoreNeedAuthenticationAsInZooKeeper() throws Exception {
        for (String command : List.of("snapshot", "restore")) {
            HttpResponse<String> apacheAnswer = get(apacheUrl + "/" + command);
            HttpResponse<String> wardenAnswer = get(wardenUrl + "/" + command);
            assertEquals(401, wardenAnswer.statusCode(), command);
            assertEquals(apacheAnswer.statusCode(), wardenAnswer.statusCode(), command);
            assertEquals(JSON.readTree(apacheAnswer.body()), JSON.readTree(wardenAnswer.body()), command);
        }
    }

    @Test
    void theStreamedSnapshotIsABackupAServerStartsFrom() throws Exception {
        HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(URI.create(wardenUrl + "/snapshot"))
                .header("Authorization", "digest " + Targets.SUPER_AUTH).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, answer.statusCode());
        long lastZxid = Long.parseLong(answer.headers().firstValue("last_zxid").orElseThrow());
        Path restored = dir.resolve("restored");
        Path file = Files.createDirectories(restored.resolve("snapshots"))
                .resolve(String.format("snapshot.%016x", lastZxid));
        Files.write(file, answer.body());
        // a snapshot without a log proves its own state only when the server is told to start from it
        try (WardenServer fromBackup = WardenServer.start(ServerConfig.builder().dataDir(restored).clientPort(0)
                .discardUnprovable(true).build())) {
            ZooKeeper zk = ApacheClients.connect(fromBackup.connectString());
            try {
                assertEquals("backed up", new String(zk.getData("/kept", false, null)));
            } finally {
                zk.close();
            }
        }
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Every field path of a JSON object, nested objects' fields as parent.child (array items not entered). */
    private static Set<String> fields(JsonNode node, String prefix) {
        Set<String> names = new TreeSet<>();
        if (node == null || !node.isObject()) {
            return names;
        }
        Iterator<Map.Entry<String, JsonNode>> entries = node.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            String name = prefix + entry.getKey();
            names.add(name);
            if (entry.getValue().isObject() && prefix.isEmpty() && !KEYED_BY_DATA.contains(name)) {
                names.addAll(fields(entry.getValue(), name + "."));
            }
        }
        return names;
    }
}
