package dev.warden.server.console;

import static dev.warden.server.console.ConsoleHttp.params;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.AdminServerSettings;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's tree endpoints on a tree of a million znodes, one node of which has 100,000
 * children: every page and node view answers in well under a second (a few ms where measured),
 * since a page costs one node's children, never the tree.
 */
class ConsoleScaleTest {
    private static final long SLOWEST_MS = 1_000;

    @TempDir
    Path dataDir;

    @Test
    void aMillionZnodesBrowseAPageAtATime() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .adminServer(AdminServerSettings.DEFAULTS.withEnabled(true).withPort(0)).build())) {
            ZooKeeper client = ApacheClients.connect(server.connectString());
            try {
                client.create("/big", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                client.create("/wide", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                Semaphore inFlight = new Semaphore(20);
                AtomicInteger failures = new AtomicInteger();
                AsyncCallback.MultiCallback done = (rc, path, ctx, results) -> {
                    if (rc != 0) {
                        failures.incrementAndGet();
                    }
                    inFlight.release();
                };
                for (int parent = 0; parent < 900; parent++) {
                    client.create("/big/p" + parent, null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                    inFlight.acquire();
                    client.multi(creates("/big/p" + parent + "/c%d", 0), done, null);
                }
                for (int batch = 0; batch < 100; batch++) {
                    inFlight.acquire();
                    client.multi(creates("/wide/n%06d", batch * 1000), done, null);
                }
                inFlight.acquire(20);
                assertEquals(0, failures.get());

                ConsoleHttp http = new ConsoleHttp(server.adminServerPort());
                http.login("carol", "pw");
                assertTrue(http.get("stats", Map.of()).json().path("node_count").asInt() > 1_000_000);
                http.get("children", params("path", "/wide")); // the first call loads classes
                JsonNode wide = timed(http, "children", params("path", "/wide", "after", "n050000"));
                assertEquals(100_000, wide.path("total").asInt());
                assertEquals("n050001", wide.path("children").get(0).path("name").asText());
                JsonNode prefixed = timed(http, "children", params("path", "/wide", "prefix", "n0999"));
                assertEquals(100, prefixed.path("matching").asInt());
                JsonNode parents = timed(http, "children", params("path", "/big", "after", "p5"));
                assertEquals(900, parents.path("total").asInt());
                assertEquals(1000, parents.path("children").get(0).path("num_children").asInt());
                timed(http, "node", params("path", "/wide"));
                timed(http, "node", params("path", "/big/p899/c999"));
            } finally {
                client.close();
            }
        }
    }

    private static List<Op> creates(String format, int from) {
        List<Op> ops = new ArrayList<>(1000);
        for (int i = from; i < from + 1000; i++) {
            ops.add(Op.create(String.format(format, i), null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        }
        return ops;
    }

    private static JsonNode timed(ConsoleHttp http, String endpoint, Map<String, String> parameters) throws Exception {
        long startNs = System.nanoTime();
        ConsoleHttp.Reply reply = http.get(endpoint, parameters);
        long tookMs = (System.nanoTime() - startNs) / 1_000_000;
        assertEquals(200, reply.status(), reply.json().toString());
        assertTrue(tookMs < SLOWEST_MS, endpoint + " " + parameters + " took " + tookMs + " ms");
        return reply.json();
    }
}
