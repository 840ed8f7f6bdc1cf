package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache load client takes the frame limit it is given, as the Warden client does: a reply
 * above ZooKeeper's default jute.maxbuffer (1 MiB less a byte) arrives with 4 MiB and is refused
 * with the default.
 */
class ApacheClientFrameLimitTest {
    private static final int LARGE_FRAME_BYTES = 4 << 20;
    private static final int DEFAULT_FRAME_BYTES = 0xfffff;

    @Test
    void aReplyAboveOneMebibyteArrivesWithALargerFrameLimit(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir);
        try (WardenServer server = WardenServer.start(ServerConfig.builder().clientPort(0).dataDir(dir)
                .juteMaxBuffer(LARGE_FRAME_BYTES).build())) {
            LoadClient large = ClientKind.APACHE.connect(server.connectString(), 30_000, LARGE_FRAME_BYTES);
            try {
                CompletableFuture<Integer> created = new CompletableFuture<>();
                large.create("/large", new byte[1_500_000], false, (rc, path) -> created.complete(rc));
                assertEquals(0, created.get(30, TimeUnit.SECONDS));
                assertEquals(0, getData(large));
            } finally {
                large.close();
            }
            LoadClient small = ClientKind.APACHE.connect(server.connectString(), 30_000, DEFAULT_FRAME_BYTES);
            try {
                assertNotEquals(0, getData(small), "a 1.5 MB reply is above the client's 1 MiB limit");
            } finally {
                small.close();
            }
        }
    }

    private static int getData(LoadClient client) throws Exception {
        CompletableFuture<Integer> read = new CompletableFuture<>();
        client.getData("/large", read::complete);
        return read.get(30, TimeUnit.SECONDS);
    }
}
