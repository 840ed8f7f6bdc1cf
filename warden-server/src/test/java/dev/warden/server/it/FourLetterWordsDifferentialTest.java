package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.net.FourLetterWordClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each of the eighteen four-letter words asked of an in-process Apache ZooKeeper 3.9 and of
 * Warden after the same client history: the same answer where the state is the same, the same
 * shape (lines, keys, fields) where the figures are each server's own, and every mntr key Warden
 * gives is one ZooKeeper gives (but Warden's own zk_tree_digest), with the same value for the
 * figures both count the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FourLetterWordsDifferentialTest {
    /** The suites' super digest: the in-process Apache servers share one per JVM. */
    private static final String SUPER_DIGEST = Targets.superDigest();
    /** mntr keys that are Warden's own; every other key Warden gives must be one ZooKeeper gives. */
    private static final Set<String> WARDEN_ONLY_MNTR_KEYS = Set.of("zk_tree_digest",
            // ZooKeeper gives this one in the AdminServer's srvr and over JMX, not in mntr
            "zk_fsync_threshold_exceed_count");
    /** mntr figures the two servers count the same way, so after the same history they are equal. */
    private static final List<String> EQUAL_MNTR_KEYS = List.of("zk_server_state", "zk_watch_count",
            "zk_ephemerals_count", "zk_global_sessions", "zk_local_sessions", "zk_outstanding_requests",
            "zk_connection_request_count", "zk_auth_failed_count", "zk_connection_rejected",
            "zk_sessionless_connections_expired", "zk_cnt_node_created_watch_count", "zk_sum_node_created_watch_count",
            "zk_cnt_node_changed_watch_count", "zk_sum_node_changed_watch_count", "zk_cnt_node_deleted_watch_count",
            "zk_cnt_node_children_watch_count", "zk_cnt_dbinittime", "zk_local_sessions", "zk_looking_count",
            "zk_diff_count", "zk_snap_count", "zk_proposal_count", "zk_commit_count",
            "zk_learner_proposal_received_count", "zk_learner_commit_received_count");
    private static final Pattern CONNECTION = Pattern.compile(
            " /[0-9.]+:\\d+\\[[01]]\\(queued=\\d+,recved=\\d+,sent=\\d+(,sid=(0x[0-9a-f]+|SESSION),lop=[A-Z]+,est=\\d+,to=\\d+"
                    + "(,lcxid=0x[0-9a-f]+)?,lzxid=0x[0-9a-f]+,lresp=\\d+,llat=\\d+,minlat=\\d+,avglat=\\d+,maxlat=\\d+)?\\)");

    private ApacheTarget apache;
    private WardenTarget warden;
    private final List<ZooKeeper> clients = new ArrayList<>();
    private final Map<String, String> sessionIds = new LinkedHashMap<>();

    @BeforeAll
    void startBothAndRunTheSameHistory(@TempDir Path dir) throws Exception {
        // ZooKeeper keeps its metrics in one static registry per JVM, which the in-process
        // servers of earlier test classes have counted into; this server's figures start at zero
        org.apache.zookeeper.server.ServerMetrics.metricsProviderInitialized(
                new org.apache.zookeeper.metrics.impl.DefaultMetricsProvider());
        apache = ApacheTarget.start(dir.resolve("apache"), SUPER_DIGEST);
        warden = WardenTarget.start(dir.resolve("warden"), SUPER_DIGEST);
        for (TargetServer target : List.of(apache, warden)) {
            ZooKeeper zk = ApacheClients.connect(target.connectString());
            clients.add(zk);
            sessionIds.put(target.name(), "0x" + Long.toHexString(zk.getSessionId()));
            zk.create("/eph", new byte[3], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            zk.exists("/watched", true);
            zk.getData("/eph", true, null);
            zk.setData("/eph", new byte[5], -1); // fires the data watch
            zk.create("/watched", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT); // fires the exists watch
            zk.exists("/watched", true);
            zk.getData("/eph", true, null);
            zk.getChildren("/", true);
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
        if (apache != null) {
            apache.close();
        }
    }

    private String ask(TargetServer target, String word) throws IOException {
        return FourLetterWordClient.ask(target.connectString(), word);
    }

    /** The answer with the target's session id written as SESSION, so the two can be compared. */
    private String askNormalised(TargetServer target, String word) throws IOException {
        return ask(target, word).replace(sessionIds.get(target.name()), "SESSION");
    }

    @Test
    void wordsAboutTheSameStateAnswerTheSame() throws IOException {
        for (String word : List.of("ruok", "isro", "gtmk", "wchs", "wchc", "wchp")) {
            assertEquals(askNormalised(apache, word), askNormalised(warden, word), word);
        }
    }

    @Test
    void resetWordsAnswerTheSame() throws IOException {
        assertEquals(ask(apache, "srst"), ask(warden, "srst"));
        assertEquals(ask(apache, "crst"), ask(warden, "crst"));
    }

    @Test
    void stmkSetsTheTraceMaskGtmkReads() throws IOException {
        for (TargetServer target : List.of(apache, warden)) {
            assertEquals("250", setTraceMask(target, 250), target.name());
            assertEquals("250", ask(target, "gtmk"), target.name());
            assertEquals("306", setTraceMask(target, 306), target.name());
        }
    }

    @Test
    void srvrAndStatHaveZooKeepersLinesWithTheSameState() throws IOException {
        for (String word : List.of("srvr", "stat")) {
            List<String> apacheLines = ask(apache, word).lines().toList();
            List<String> wardenLines = ask(warden, word).lines().toList();
            assertEquals(keysOf(apacheLines, ": "), keysOf(wardenLines, ": "), word);
            for (String key : List.of("Mode", "Outstanding")) {
                assertEquals(valueOf(apacheLines, key + ": "), valueOf(wardenLines, key + ": "), word + " " + key);
            }
            assertTrue(valueOf(wardenLines, "Latency min/avg/max: ").matches("\\d+/\\d+\\.\\d+/\\d+"), word);
        }
    }

    @Test
    void consListsEveryConnectionWithZooKeepersFields() throws IOException {
        List<String> lastOperations = new ArrayList<>();
        for (TargetServer target : List.of(apache, warden)) {
            String cons = askNormalised(target, "cons");
            assertTrue(cons.endsWith("\n\n"), target.name() + ": " + cons);
            List<String> lines = cons.strip().lines().toList();
            for (String line : lines) {
                assertTrue(CONNECTION.matcher(" " + line.strip()).matches(), target.name() + ": " + line);
            }
            String session = lines.stream().filter(line -> line.contains("sid=SESSION")).findFirst().orElseThrow();
            lastOperations.add(session.replaceAll(".*,lop=([A-Z]+),.*", "$1"));
        }
        assertEquals(lastOperations.get(0), lastOperations.get(1), "the session's last operation");
    }

    @Test
    void dumpListsSessionsAndEphemeralsAsZooKeeperDoes() throws IOException {
        for (TargetServer target : List.of(apache, warden)) {
            String dump = askNormalised(target, "dump");
            assertTrue(dump.startsWith("SessionTracker dump:\nSession Sets ("), target.name() + ": " + dump);
            assertTrue(Pattern.compile("(?m)^\\d+ expire at \\w{3} \\w{3} \\d\\d \\d\\d:\\d\\d:\\d\\d \\w+ \\d{4}:$")
                    .matcher(dump).find(), target.name() + ": " + dump);
            assertTrue(dump.contains("ephemeral nodes dump:\nSessions with Ephemerals (1):\nSESSION:\n\t/eph\n"),
                    target.name() + ": " + dump);
        }
    }

    @Test
    void confHasEveryKeyZooKeepersHas() throws IOException {
        Set<String> apacheKeys = keysOf(ask(apache, "conf").lines().toList(), "=");
        Set<String> wardenKeys = keysOf(ask(warden, "conf").lines().toList(), "=");
        assertTrue(wardenKeys.containsAll(apacheKeys), "missing: " + minus(apacheKeys, wardenKeys));
    }

    @Test
    void enviHasZooKeepersHeaderAndJavaKeys() throws IOException {
        for (TargetServer target : List.of(apache, warden)) {
            List<String> lines = ask(target, "envi").lines().toList();
            assertEquals("Environment:", lines.get(0));
            Set<String> keys = keysOf(lines.subList(1, lines.size()), "=");
            assertTrue(keys.containsAll(Set.of("zookeeper.version", "java.version", "java.home", "os.name",
                    "user.dir", "os.memory.free", "os.memory.max", "os.memory.total")), target.name() + ": " + keys);
        }
    }

    @Test
    void dirsGivesTheTwoSizes() throws IOException {
        for (TargetServer target : List.of(apache, warden)) {
            assertTrue(ask(target, "dirs").matches("datadir_size: \\d+\nlogdir_size: [1-9]\\d*\n"), target.name());
        }
    }

    @Test
    void hashListsTheDigestAfterEvery128thZxid() throws Exception {
        for (int i = 0; i < 2; i++) {
            ZooKeeper zk = clients.get(i);
            TargetServer target = i == 0 ? apache : warden;
            // the history so far took a few zxids; go past 0x80
            while (zk.exists("/eph", false).getMzxid() < 0x81) {
                zk.setData("/eph", new byte[1], -1);
            }
            List<String> lines = ask(target, "hash").lines().toList();
            assertEquals(1, lines.size(), target.name() + ": " + lines);
            assertTrue(lines.get(0).matches("80: -?\\d+"), target.name() + ": " + lines);
        }
    }

    @Test
    void mntrGivesOnlyZooKeepersKeysWithTheSameFigures() throws IOException {
        Map<String, String> apacheMntr = keyValues(ask(apache, "mntr"));
        Map<String, String> wardenMntr = keyValues(ask(warden, "mntr"));
        Set<String> invented = minus(wardenMntr.keySet(), apacheMntr.keySet());
        invented.removeAll(WARDEN_ONLY_MNTR_KEYS);
        assertEquals(Set.of(), invented, "mntr keys ZooKeeper does not have");
        for (String key : EQUAL_MNTR_KEYS) {
            assertEquals(apacheMntr.get(key), wardenMntr.get(key), key);
        }
        for (Map.Entry<String, String> entry : wardenMntr.entrySet()) {
            String apacheValue = apacheMntr.get(entry.getKey());
            if (apacheValue != null && apacheValue.matches("-?\\d+(\\.\\d+)?")) {
                assertTrue(entry.getValue().matches(apacheValue.contains(".") ? "-?\\d+\\.\\d+" : "-?\\d+"),
                        entry.getKey() + ": Warden " + entry.getValue() + ", ZooKeeper " + apacheValue);
            }
        }
        assertTrue(wardenMntr.size() >= 85, wardenMntr.size() + " keys");
    }

    /** stmk followed by the new mask as an 8-byte big-endian long, as ZooKeeper documents it. */
    private static String setTraceMask(TargetServer target, long mask) throws IOException {
        String connect = target.connectString();
        int colon = connect.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(connect.substring(0, colon),
                    Integer.parseInt(connect.substring(colon + 1))), 5_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(ByteBuffer.allocate(12).put("stmk".getBytes(StandardCharsets.US_ASCII)).putLong(mask).array());
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private static Map<String, String> keyValues(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        text.lines().forEach(line -> {
            int tab = line.indexOf('\t');
            map.put(line.substring(0, tab), line.substring(tab + 1));
        });
        return map;
    }

    private static Set<String> keysOf(List<String> lines, String separator) {
        Set<String> keys = new TreeSet<>();
        for (String line : lines) {
            int at = line.indexOf(separator);
            if (at > 0 && !line.startsWith(" ")) {
                keys.add(line.substring(0, at));
            }
        }
        return keys;
    }

    private static String valueOf(List<String> lines, String prefix) {
        return lines.stream().filter(line -> line.startsWith(prefix)).findFirst().orElseThrow()
                .substring(prefix.length());
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> difference = new TreeSet<>(a);
        difference.removeAll(b);
        return difference;
    }
}
