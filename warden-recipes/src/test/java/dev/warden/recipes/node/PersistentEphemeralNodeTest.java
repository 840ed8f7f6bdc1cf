package dev.warden.recipes.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PersistentEphemeralNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    private static boolean exists(WardenClient client, String path) {
        return client.exists(path).join().isPresent();
    }

    @Test
    void comesBackWhenDeletedCarriesNewDataAndGoesOnClose() throws Exception {
        String path = RecipeTarget.freshPath("pen") + "/me";
        WardenClient admin = target.client();
        List<String> created = new CopyOnWriteArrayList<>();
        PersistentEphemeralNode node = new PersistentEphemeralNode(target.client(), path, "v1".getBytes(), false, null,
                new NodeListener() {
                    @Override
                    public void created(String at) {
                        created.add(at);
                    }
                });
        assertEquals(path, node.start(WAIT));
        admin.delete(path).join();
        Eventually.holds(WAIT, () -> created.size() == 2 && exists(admin, path), () -> "created " + created);
        node.setData("v2".getBytes()).join();
        admin.delete(path).join();
        Eventually.holds(WAIT, () -> created.size() == 3 && exists(admin, path), () -> "created " + created);
        assertArrayEquals("v2".getBytes(), admin.getData(path).join().data(), "a re-creation carries the new data");
        node.close();
        assertTrue(!exists(admin, path));
    }

    @Test
    void aSequentialNodeGetsANewPathEachTime() throws Exception {
        String dir = RecipeTarget.freshPath("pen-seq");
        WardenClient admin = target.client();
        PersistentEphemeralNode node = new PersistentEphemeralNode(target.client(), dir + "/worker-", new byte[0], true,
                null, null);
        String first = node.start(WAIT);
        admin.delete(first).join();
        Eventually.holds(WAIT, () -> node.path() != null && !node.path().equals(first) && exists(admin, node.path()),
                () -> "path " + node.path());
        assertEquals(1, admin.getChildren(dir).join().size());
        node.close();
    }

    @Test
    void afterALostSessionItComesBackOnANewOneWithoutEverBeingHeldTwice() throws Exception {
        String path = RecipeTarget.freshPath("pen-lost") + "/me";
        WardenClient admin = target.client();
        ProxiedClient first = target.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        PersistentEphemeralNode node = new PersistentEphemeralNode(first.client(), path, new byte[0], false,
                () -> CompletableFuture.completedFuture(target.client()), null);
        node.start(WAIT);
        long firstOwner = admin.exists(path).join().orElseThrow().ephemeralOwner();
        first.proxy().cut();
        Eventually.holds(WAIT, () -> admin.exists(path).join().map(s -> s.ephemeralOwner() != firstOwner).orElse(false),
                () -> "owner " + admin.exists(path).join());
        assertNotEquals(firstOwner, admin.exists(path).join().orElseThrow().ephemeralOwner());
        assertEquals(node.client().sessionId(), admin.exists(path).join().orElseThrow().ephemeralOwner());
        node.close();
    }
}
