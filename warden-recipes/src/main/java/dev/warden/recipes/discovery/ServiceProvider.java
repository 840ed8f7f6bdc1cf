package dev.warden.recipes.discovery;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** Picks one instance of a service from a {@link ServiceCache} per call. */
public final class ServiceProvider {
    /** How an instance is chosen. */
    public enum Strategy { RANDOM, ROUND_ROBIN }

    private final ServiceCache cache;
    private final Strategy strategy;
    private final AtomicInteger next = new AtomicInteger();

    ServiceProvider(ServiceCache cache, Strategy strategy) {
        this.cache = cache;
        this.strategy = strategy;
    }

    /** An instance, or empty if the service has none now. */
    public Optional<ServiceInstance> instance() {
        List<ServiceInstance> instances = cache.instances();
        if (instances.isEmpty()) {
            return Optional.empty();
        }
        int index = strategy == Strategy.RANDOM ? ThreadLocalRandom.current().nextInt(instances.size())
                : Math.floorMod(next.getAndIncrement(), instances.size());
        return Optional.of(instances.get(index));
    }
}
