package dev.warden.recipes.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.WardenClient;
import dev.warden.recipes.node.PersistentEphemeralNode;
import dev.warden.recipes.testing.Eventually;
import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceDiscoveryTest {
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

    @Test
    void registersLooksUpCachesAndForgetsADeadInstance() throws Exception {
        String base = RecipeTarget.freshPath("services");
        ProxiedClient dying = target.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        new ServiceDiscovery(target.client(), base).register(new ServiceInstance("api", "a1", "10.0.0.1", 8080,
                Map.of("zone", "east"))).join();
        new ServiceDiscovery(target.client(), base).register(new ServiceInstance("api", "a2", "10.0.0.2", 8080, Map.of())).join();
        new ServiceDiscovery(dying.client(), base).register(new ServiceInstance("api", "a3", "10.0.0.3", 8080, Map.of())).join();
        PersistentEphemeralNode db = new ServiceDiscovery(target.client(), base)
                .register(new ServiceInstance("db", "d1", "10.0.1.1", 5432, Map.of())).join();

        ServiceDiscovery lookup = new ServiceDiscovery(target.client(), base);
        assertEquals(List.of("api", "db"), lookup.names().join());
        List<ServiceInstance> apis = lookup.instances("api").join();
        assertEquals(List.of("a1", "a2", "a3"), apis.stream().map(ServiceInstance::id).toList());
        assertEquals("east", apis.get(0).payload().get("zone"));
        assertEquals(List.of(), lookup.instances("nothing").join());

        try (ServiceCache cache = lookup.cache("api").start(WAIT)) {
            ServiceProvider roundRobin = cache.provider(ServiceProvider.Strategy.ROUND_ROBIN);
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                seen.add(roundRobin.instance().orElseThrow().id());
            }
            assertEquals(Set.of("a1", "a2", "a3"), seen, "round robin visits every instance");

            dying.proxy().cut();
            Eventually.holds(WAIT, () -> cache.instances().size() == 2, () -> "cache " + cache.instances());
            assertTrue(cache.instances().stream().noneMatch(i -> i.id().equals("a3")));
        }

        ServiceDiscovery.update(db, new ServiceInstance("db", "d1", "10.0.1.9", 5432, Map.of())).join();
        WardenClient reader = target.client();
        assertEquals("10.0.1.9", new ServiceDiscovery(reader, base).instances("db").join().get(0).address());
        db.close();
        assertEquals(List.of(), new ServiceDiscovery(reader, base).instances("db").join());
    }
}
