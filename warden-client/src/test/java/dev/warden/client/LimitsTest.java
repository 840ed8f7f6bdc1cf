package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import dev.warden.testsupport.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Frame-size refusal and the outstanding-request caps. */
class LimitsTest extends PerClassServerTest {
    @Test
    void oversizedRequestsAreRefusedLocallyBeforeSending() {
        try (WardenClient client = WardenClient.builder().connectString(server.connectString())
                .maxFrameBytes(4096).connect().join()) {
            CompletableFuture<String> tooBig = client.create("/big", new byte[5000], CreateMode.PERSISTENT);
            assertTrue(tooBig.isCompletedExceptionally(), "refused without a round trip");
            CompletionException e = assertThrows(CompletionException.class, tooBig::join);
            WardenException refused = assertInstanceOf(WardenException.RequestTooLargeException.class, e.getCause());
            assertEquals(ErrorCode.BAD_ARGUMENTS, refused.code());
            assertTrue(refused.getMessage().contains("maxFrameBytes 4096"), refused.getMessage());
            assertEquals("/big", client.create("/big", new byte[3000], CreateMode.PERSISTENT).join());
            assertTrue(client.exists("/big").join().isPresent());
        }
    }

    @Test
    void requestsBeyondTheHardCapFailAtOnceAndTheRestWaitForASlot() throws Exception {
        try (FaultProxy proxy = new FaultProxy(server.port());
             WardenClient client = WardenClient.builder().connectString(proxy.address())
                     .sessionTimeout(Duration.ofSeconds(10))
                     .maxOutstandingRequests(10).maxQueuedRequests(30).connect().join()) {
            proxy.pause();
            List<CompletableFuture<?>> accepted = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                accepted.add(client.exists("/"));
            }
            CompletableFuture<?> rejected = client.exists("/");
            CompletionException e = assertThrows(CompletionException.class, rejected::join);
            assertInstanceOf(WardenException.TooManyRequestsException.class, e.getCause());
            Thread.sleep(200);
            for (CompletableFuture<?> future : accepted) {
                assertTrue(!future.isDone(), "nothing completes while the link is paused");
            }
            proxy.resume();
            CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).join();
            // The slots are free again.
            assertTrue(client.exists("/").join().isPresent());
        }
    }

    @Test
    void replyLargerThanTheClientFrameLimitDropsTheConnectionAndFailsTheRead() {
        try (WardenClient writer = WardenClient.builder().connectString(server.connectString()).connect().join();
             WardenClient reader = WardenClient.builder().connectString(server.connectString())
                     .maxFrameBytes(2048).retryPolicy(RetryPolicy.upTo(1, 10_000)).connect().join()) {
            writer.create("/large", new byte[8000], CreateMode.PERSISTENT).join();
            CompletionException e = assertThrows(CompletionException.class, () -> reader.getData("/large").join());
            assertInstanceOf(WardenException.ConnectionLossException.class, e.getCause());
            assertTrue(reader.exists("/large").join().isPresent(), "the client reconnects and keeps working");
        }
    }
}
