package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.nodes.PersistentTtlNode;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.recipes.shared.SharedCount;
import org.apache.curator.framework.recipes.shared.VersionedValue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Curator 5 recipes, unchanged, against the target server. */
class CuratorRecipesTest {
    private static final int SESSION_TIMEOUT_MS = 10_000;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void mutexGivesExclusiveAccess(String target, @TempDir Path dir) throws Exception {
        int contenders = 10;
        int incrementsEach = 20;
        try (TargetServer server = Targets.start(target, dir); Curators curators = new Curators(server)) {
            SharedState state = new SharedState();
            ExecutorService pool = Executors.newFixedThreadPool(contenders);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int i = 0; i < contenders; i++) {
                    InterProcessMutex mutex = new InterProcessMutex(curators.open(), "/lock");
                    done.add(pool.submit(() -> {
                        for (int n = 0; n < incrementsEach; n++) {
                            if (!mutex.acquire(20, TimeUnit.SECONDS)) {
                                throw new AssertionError("lock not acquired in time");
                            }
                            try {
                                state.incrementWhileHolding();
                            } finally {
                                mutex.release();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1, state.maxHolders.get(), "two holders at once");
            assertEquals(contenders * incrementsEach, state.counter);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void leadershipMovesWhenTheLeadersClientCloses(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Curators curators = new Curators(server)) {
            List<CuratorFramework> clients = new ArrayList<>();
            List<LeaderLatch> latches = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                CuratorFramework client = curators.open();
                LeaderLatch latch = new LeaderLatch(client, "/leader", "candidate-" + i);
                latch.start();
                clients.add(client);
                latches.add(latch);
            }
            Await.untilTrue("one leader", () -> latches.stream().filter(LeaderLatch::hasLeadership).count() == 1);
            int leader = indexOfLeader(latches, -1);
            clients.get(leader).close(); // ends the session; the latch node is ephemeral
            // The closed latch never hears that it lost, so it is left out of the count.
            Await.untilTrue("exactly one new leader among the others", () -> IntStream.range(0, latches.size())
                .filter(i -> i != leader && latches.get(i).hasLeadership()).count() == 1);
            for (int i = 0; i < latches.size(); i++) {
                if (i != leader) {
                    latches.get(i).close();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void curatorCacheSeesSubtreeChanges(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Curators curators = new Curators(server)) {
            CuratorFramework writer = curators.open();
            writer.create().forPath("/cache", bytes("root"));
            List<String> seen = new CopyOnWriteArrayList<>();
            CountDownLatch initialized = new CountDownLatch(1);
            try (CuratorCache cache = CuratorCache.build(curators.open(), "/cache")) {
                cache.listenable().addListener(CuratorCacheListener.builder()
                    .forCreates(node -> seen.add("create " + node.getPath()))
                    .forChanges((before, after) -> seen.add("change " + after.getPath() + " " + text(after.getData())))
                    .forDeletes(node -> seen.add("delete " + node.getPath()))
                    .forInitialized(initialized::countDown)
                    .build());
                cache.start();
                assertTrue(initialized.await(10, TimeUnit.SECONDS));
                // One step at a time: a change that lands before the cache has read a new node
                // is folded into its create event, which would make the sequence racy.
                writer.create().forPath("/cache/a", bytes("1"));
                Await.untilTrue("create seen", () -> seen.contains("create /cache/a"));
                writer.create().forPath("/cache/a/b", bytes("2"));
                Await.untilTrue("nested create seen", () -> seen.contains("create /cache/a/b"));
                writer.setData().forPath("/cache/a", bytes("3"));
                Await.untilTrue("change seen", () -> seen.contains("change /cache/a 3"));
                writer.delete().forPath("/cache/a/b");
                Await.untilTrue("delete seen", () -> seen.contains("delete /cache/a/b"));
                assertEquals(List.of("create /cache", "create /cache/a", "create /cache/a/b", "change /cache/a 3",
                    "delete /cache/a/b"), seen);
                assertEquals("3", text(cache.get("/cache/a").orElseThrow().getData()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void distributedQueueDeliversEveryItemOnce(String target, @TempDir Path dir) throws Exception {
        int items = 100;
        try (TargetServer server = Targets.start(target, dir); Curators curators = new Curators(server)) {
            Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
            QueueConsumer<String> consumer = new QueueConsumer<>() {
                @Override
                public void consumeMessage(String message) {
                    deliveries.computeIfAbsent(message, m -> new AtomicInteger()).incrementAndGet();
                }

                @Override
                public void stateChanged(CuratorFramework client, ConnectionState newState) {
                }
            };
            List<DistributedQueue<String>> queues = new ArrayList<>();
            CuratorFramework observer = curators.open();
            try {
                for (int i = 0; i < 2; i++) {
                    DistributedQueue<String> queue =
                        QueueBuilder.builder(curators.open(), consumer, new StringSerializer(), "/queue").buildQueue();
                    queue.start();
                    queues.add(queue);
                }
                for (int i = 0; i < items; i++) {
                    queues.get(i % 2).put("item-" + i);
                }
                Await.untilTrue("all items consumed", () -> deliveries.size() == items);
                Await.until("queue drained", () -> observer.getChildren().forPath("/queue").isEmpty());
            } finally {
                for (DistributedQueue<String> queue : queues) {
                    queue.close();
                }
            }
            deliveries.forEach((item, count) -> assertEquals(1, count.get(), item + " delivered more than once"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void sharedCountCompareAndSetSumsExactly(String target, @TempDir Path dir) throws Exception {
        int clients = 4;
        int incrementsEach = 25;
        try (TargetServer server = Targets.start(target, dir); Curators curators = new Curators(server)) {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            List<SharedCount> counts = new ArrayList<>();
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    SharedCount count = new SharedCount(curators.open(), "/count", 0);
                    count.start();
                    counts.add(count);
                    done.add(pool.submit(() -> {
                        for (int n = 0; n < incrementsEach; n++) {
                            while (true) {
                                VersionedValue<Integer> current = count.getVersionedValue();
                                if (count.trySetCount(current, current.getValue() + 1)) {
                                    break;
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                int expected = clients * incrementsEach;
                Await.untilTrue("every view converges", () -> counts.stream().allMatch(c -> c.getCount() == expected));
                // SharedCount stores the value as a 4-byte big-endian int.
                assertEquals(expected, java.nio.ByteBuffer.wrap(curators.open().getData().forPath("/count")).getInt());
            } finally {
                pool.shutdownNow();
                for (SharedCount count : counts) {
                    count.close();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void persistentTtlNodeLivesWhileOpenOnly(String target, @TempDir Path dir) throws Exception {
        long ttlMs = 500;
        try (TargetServer server = Targets.start(target, dir); Curators curators = new Curators(server)) {
            CuratorFramework client = curators.open();
            PersistentTtlNode node = new PersistentTtlNode(client, "/alive", ttlMs, bytes("here"));
            node.start();
            assertTrue(node.waitForInitialCreate(10, TimeUnit.SECONDS));
            // A plain TTL node with the same ttl serves as the clock: once it is reaped, more
            // than ttl has passed, and the kept-alive node must still be there.
            client.create().withTtl(ttlMs).withMode(CreateMode.PERSISTENT_WITH_TTL).forPath("/witness");
            Await.until("witness reaped", () -> client.checkExists().forPath("/witness") == null);
            assertNotNull(client.checkExists().forPath("/alive"));
            assertEquals("here", text(client.getData().forPath("/alive")));
            node.close();
            Await.until("ttl node gone after close", () -> client.checkExists().forPath("/alive") == null);
        }
    }

    private static int indexOfLeader(List<LeaderLatch> latches, int excluded) {
        for (int i = 0; i < latches.size(); i++) {
            if (i != excluded && latches.get(i).hasLeadership()) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** A counter that loses updates if two holders ever interleave, plus an overlap detector. */
    private static final class SharedState {
        final AtomicInteger holders = new AtomicInteger();
        final AtomicInteger maxHolders = new AtomicInteger();
        volatile int counter;

        void incrementWhileHolding() {
            int now = holders.incrementAndGet();
            maxHolders.accumulateAndGet(now, Math::max);
            int read = counter;
            Thread.yield(); // widen the window a concurrent holder would need to lose an update
            counter = read + 1;
            holders.decrementAndGet();
        }
    }

    private static final class StringSerializer implements QueueSerializer<String> {
        @Override
        public byte[] serialize(String item) {
            return bytes(item);
        }

        @Override
        public String deserialize(byte[] bytes) {
            return text(bytes);
        }
    }

    /** Opens started Curator clients and closes them all at the end. */
    private static final class Curators implements AutoCloseable {
        private final String connectString;
        private final List<CuratorFramework> open = new ArrayList<>();

        Curators(TargetServer server) {
            this.connectString = server.connectString();
        }

        CuratorFramework open() throws InterruptedException {
            CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, SESSION_TIMEOUT_MS,
                CONNECT_TIMEOUT_MS, new RetryNTimes(5, 100));
            open.add(client);
            client.start();
            if (!client.blockUntilConnected(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new AssertionError("curator did not connect");
            }
            return client;
        }

        @Override
        public void close() {
            for (CuratorFramework client : open) {
                client.close();
            }
        }
    }
}
