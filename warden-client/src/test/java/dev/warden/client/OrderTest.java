package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.CreateMode;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Completions run in request order, and watch events run before the replies that follow them on the wire. */
class OrderTest extends PerClassServerTest {
    private static final int REQUESTS = 5000;

    private static byte[] intBytes(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    private void runInterleavedWorkload(WardenClient client) {
        client.create("/o", intBytes(-1), CreateMode.PERSISTENT).join();
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        client.addWatch("/o", WatchMode.PERSISTENT, event -> log.add("event " + event.zxid())).join();

        List<CompletableFuture<?>> futures = new ArrayList<>(REQUESTS);
        Map<Integer, Long> writeZxids = new HashMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            int index = i;
            if (i % 3 == 0) {
                futures.add(client.setData("/o", intBytes(i)).thenAccept(stat -> {
                    synchronized (writeZxids) {
                        writeZxids.put(index, stat.mzxid());
                    }
                    log.add("reply " + index + " write " + stat.mzxid());
                }));
            } else {
                futures.add(client.getData("/o").thenAccept(read ->
                        log.add("reply " + index + " read " + ByteBuffer.wrap(read.data()).getInt())));
            }
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();

        int expectedIndex = 0;
        int lastWritten = -1;
        long lastEventZxid = 0;
        int events = 0;
        for (String line : log) {
            String[] parts = line.split(" ");
            if (parts[0].equals("event")) {
                lastEventZxid = Long.parseLong(parts[1]);
                events++;
                continue;
            }
            int index = Integer.parseInt(parts[1]);
            assertEquals(expectedIndex, index, "completions out of request order");
            expectedIndex++;
            if (parts[2].equals("write")) {
                assertEquals(Long.parseLong(parts[3]), lastEventZxid, "the write's event must precede its reply");
                lastWritten = index;
            } else {
                assertEquals(lastWritten, Integer.parseInt(parts[3]), "a read sees exactly the writes before it");
            }
        }
        assertEquals(REQUESTS, expectedIndex);
        assertEquals((REQUESTS + 2) / 3, events);
    }

    @Test
    void thousandsOfRequestsCompleteInOrderWithTheirWatchEvents() {
        try (WardenClient client = WardenClient.builder().connectString(server.connectString() + "/")
                .maxOutstandingRequests(256).connect().join()) {
            client.create("/default", new byte[0], CreateMode.PERSISTENT).join();
        }
        // A small wire window with a queue big enough for the whole burst.
        try (WardenClient client = WardenClient.builder().connectString(server.connectString() + "/default")
                .maxOutstandingRequests(256).maxQueuedRequests(REQUESTS + 10).connect().join()) {
            runInterleavedWorkload(client);
        }
    }

    @Test
    void orderHoldsOnAMultiThreadedExecutor() {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            try (WardenClient setup = WardenClient.builder().connectString(server.connectString()).connect().join()) {
                setup.create("/pool", new byte[0], CreateMode.PERSISTENT).join();
            }
            try (WardenClient client = WardenClient.builder().connectString(server.connectString() + "/pool")
                    .executor(pool).maxQueuedRequests(REQUESTS + 10).sessionTimeout(Duration.ofSeconds(10))
                    .connect().join()) {
                runInterleavedWorkload(client);
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(pool.isShutdown());
    }
}
