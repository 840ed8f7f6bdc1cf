package dev.warden.recipes.barrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoubleBarrierTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MEMBERS = 5;
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private String path;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        path = RecipeTarget.freshPath("double-barrier") + "/round-1";
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void nobodyEntersBeforeTheLastMemberAndNobodyLeavesBeforeTheLastLeaver() throws Exception {
        List<DoubleBarrier> members = new ArrayList<>();
        List<CompletableFuture<Void>> entered = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            members.add(new DoubleBarrier(server.client(), path, "m" + i, MEMBERS));
        }
        for (int i = 0; i < MEMBERS - 1; i++) {
            entered.add(members.get(i).enter());
        }
        Thread.sleep(300);
        assertTrue(entered.stream().noneMatch(CompletableFuture::isDone), "four of five: nobody enters");
        entered.add(members.get(MEMBERS - 1).enter());
        CompletableFuture.allOf(entered.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);

        List<CompletableFuture<Void>> left = new ArrayList<>();
        for (int i = 0; i < MEMBERS - 1; i++) {
            left.add(members.get(i).leave());
        }
        Thread.sleep(300);
        assertTrue(left.stream().noneMatch(CompletableFuture::isDone), "one still inside: nobody is out");
        left.add(members.get(MEMBERS - 1).leave());
        CompletableFuture.allOf(left.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        WardenClient observer = server.client();
        assertEquals(List.of(DoubleBarrier.READY), observer.blocking(TIMEOUT).getChildren(path));
    }

    @Test
    void aMemberThatCrashesInsideDoesNotBlockTheOthersFromLeaving() throws Exception {
        List<WardenClient> clients = new ArrayList<>();
        List<CompletableFuture<Void>> entered = new ArrayList<>();
        List<DoubleBarrier> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            clients.add(server.client());
            members.add(new DoubleBarrier(clients.get(i), path, "m" + i, 3));
            entered.add(members.get(i).enter());
        }
        CompletableFuture.allOf(entered.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        // m0 is the lowest name, the one the others watch while leaving: the hardest case
        clients.get(0).close();
        CompletableFuture<Void> first = members.get(1).leave();
        CompletableFuture<Void> second = members.get(2).leave();
        CompletableFuture.allOf(first, second).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aMemberThatCrashesBeforeTheThresholdLeavesTheOthersWaitingUntilAReplacementEnters() throws Exception {
        WardenClient doomed = server.client();
        CompletableFuture<Void> a = new DoubleBarrier(server.client(), path, "a", 3).enter();
        CompletableFuture<Void> c = new DoubleBarrier(doomed, path, "c", 3).enter();
        Thread.sleep(200);
        doomed.close();
        assertFalse(new DoubleBarrier(server.client(), path, "b", 3).enter(Duration.ofMillis(500)),
                "two of three after the crash: no entry, the timeout returns false");
        assertFalse(a.isDone());
        assertTrue(c.isCompletedExceptionally(), "the crashed member's own wait fails");
        assertTrue(new DoubleBarrier(server.client(), path, "d", 3).enter(TIMEOUT), "a replacement completes it");
        a.get(10, TimeUnit.SECONDS);
    }
}
