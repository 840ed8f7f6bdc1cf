package dev.warden.server.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throws malformed frames at a running server over many connections while one healthy session
 * works beside them. Set WARDEN_FUZZ_SEED to replay; the seed in use is printed. Thread timing
 * still varies between runs, so a replay repeats the frames, not their interleaving.
 */
class MalformedFrameFuzzTest {
    private static final long FRAME_BUDGET = 300_000;
    private static final int FUZZ_THREADS = 3;
    private static final long TIME_LIMIT_MS = 75_000;
    private static final long SETTLE_TIMEOUT_MS = 15_000;

    @TempDir
    Path dataDir;

    @Test
    void malformedFramesNeverDisturbAHealthySessionNorLeakConnections() throws Exception {
        String fixed = System.getenv("WARDEN_FUZZ_SEED");
        long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        System.out.println("MalformedFrameFuzzTest seed " + seed + " (replay with WARDEN_FUZZ_SEED=" + seed + ")");
        ServerConfig config = ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(0)
                .maxClientCnxns(0)
                .tickTimeMs(2000)
                .forceSync(false)
                .sessionlessConnectionTimeoutMs(3000)
                .fourLetterWordWhitelist(Set.of("*"))
                .build();
        try (WardenServer server = WardenServer.start(config)) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.clientPort());
            AtomicBoolean stop = new AtomicBoolean();
            try (HealthyClient healthy = HealthyClient.connect(server.connectString(), stop)) {
                Thread healthyThread = new Thread(healthy, "healthy-client");
                healthyThread.start();
                long baselineConnections = aliveConnections(address);

                AtomicLong framesSent = new AtomicLong();
                AtomicLong connections = new AtomicLong();
                List<FrameFuzzer> fuzzers = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < FUZZ_THREADS; i++) {
                    FrameFuzzer fuzzer = new FrameFuzzer(address, seed + i, config.juteMaxBuffer(), framesSent,
                            connections, FRAME_BUDGET, stop);
                    fuzzers.add(fuzzer);
                    Thread thread = new Thread(fuzzer, "fuzzer-" + i);
                    threads.add(thread);
                    thread.start();
                }
                long startedMs = System.currentTimeMillis();
                for (Thread thread : threads) {
                    thread.join(Math.max(1, TIME_LIMIT_MS - (System.currentTimeMillis() - startedMs)));
                }
                stop.set(true);
                for (Thread thread : threads) {
                    thread.join();
                }
                healthyThread.join();
                long elapsedMs = System.currentTimeMillis() - startedMs;
                System.out.println("MalformedFrameFuzzTest: " + framesSent.get() + " frames over " + connections.get()
                        + " connections in " + elapsedMs + " ms; healthy client did " + healthy.operations()
                        + " operations; live connections before " + baselineConnections);

                for (FrameFuzzer fuzzer : fuzzers) {
                    assertNull(fuzzer.failure(), () -> "fuzzer failed: " + fuzzer.failure());
                }
                assertNull(healthy.failure(), "the healthy session was disturbed");
                assertTrue(framesSent.get() >= FRAME_BUDGET,
                        "only " + framesSent.get() + " frames within " + TIME_LIMIT_MS + " ms");
                assertTrue(healthy.operations() > 0, "the healthy client never got going");
                assertTrue(healthy.answers(), "the healthy session no longer answers");
                assertNull(healthy.failure(), "the healthy session was disturbed");
                assertEquals(baselineConnections, awaitConnections(address, baselineConnections),
                        "connections leaked: the count did not return to the healthy client's");
                try (HealthyClient fresh = HealthyClient.connect(server.connectString(), stop)) {
                    assertTrue(fresh.answers(), "a new session is not served after the fuzz");
                }
            }
        }
    }

    /** Polls mntr until the live connection count is back to {@code expected} or time runs out. */
    private static long awaitConnections(InetSocketAddress address, long expected) throws Exception {
        long deadlineMs = System.currentTimeMillis() + SETTLE_TIMEOUT_MS;
        long count = aliveConnections(address);
        while (count != expected && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(100);
            count = aliveConnections(address);
        }
        return count;
    }

    /** zk_num_alive_connections from mntr; the mntr connection itself is one of them. */
    private static long aliveConnections(InetSocketAddress address) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, 5_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("mntr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : reply.split("\n")) {
                String[] keyValue = line.split("\t");
                if (keyValue.length == 2 && keyValue[0].equals("zk_num_alive_connections")) {
                    return Long.parseLong(keyValue[1].trim());
                }
            }
            throw new AssertionError("mntr has no zk_num_alive_connections:\n" + reply);
        }
    }
}
