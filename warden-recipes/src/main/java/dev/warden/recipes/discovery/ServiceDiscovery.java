package dev.warden.recipes.discovery;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.node.NodeListener;
import dev.warden.recipes.node.PersistentEphemeralNode;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipePaths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Service registration and lookup, as Curator's service discovery: each instance is an
 * ephemeral node {@code <base>/<service>/<id>} holding its {@link ServiceInstance}, kept by a
 * {@link PersistentEphemeralNode} (re-created if deleted, re-registered on a new session after
 * LOST when a session source is given). An instance whose process dies disappears when its
 * session expires.
 *
 * <p>Lookups read the servers ({@link #names()}, {@link #instances(String)}); a
 * {@link ServiceCache} keeps one service's instances locally and a {@link ServiceProvider}
 * picks one of them per call.
 */
public final class ServiceDiscovery {
    private final WardenClient client;
    private final String basePath;

    public ServiceDiscovery(WardenClient client, String basePath) {
        this.client = client;
        this.basePath = RecipePaths.checkDirectory(basePath);
    }

    /** Registers {@code instance} on this client's session; close the registration to unregister. */
    public CompletableFuture<PersistentEphemeralNode> register(ServiceInstance instance) {
        return register(instance, null, null);
    }

    /** As {@link #register(ServiceInstance)}, registering again on a session from {@code sessionSource} after LOST. */
    public CompletableFuture<PersistentEphemeralNode> register(ServiceInstance instance,
                                                              Supplier<CompletableFuture<WardenClient>> sessionSource,
                                                              NodeListener listener) {
        PersistentEphemeralNode node = new PersistentEphemeralNode(client, instancePath(instance.name(), instance.id()),
                instance.encode(), false, sessionSource, listener);
        return node.start().thenApply(path -> node);
    }

    /** Publishes a changed instance (same name and id) through its registration. */
    public static CompletableFuture<Void> update(PersistentEphemeralNode registration, ServiceInstance changed) {
        return registration.setData(changed.encode());
    }

    String servicePath(String name) {
        return basePath + "/" + name;
    }

    private String instancePath(String name, String id) {
        return servicePath(name) + "/" + id;
    }

    /** The service names that have (or had) instances. */
    public CompletableFuture<List<String>> names() {
        return client.getChildren(basePath).exceptionally(failure -> {
            if (Failures.is(failure, WardenException.NoNodeException.class)) {
                return List.of();
            }
            throw new java.util.concurrent.CompletionException(Failures.cause(failure));
        }).thenApply(names -> names.stream().sorted().toList());
    }

    /** The registered instances of {@code name}, by id. */
    public CompletableFuture<List<ServiceInstance>> instances(String name) {
        return client.getChildren(servicePath(name)).handle((ids, failure) -> {
            if (failure != null) {
                if (Failures.is(failure, WardenException.NoNodeException.class)) {
                    return CompletableFuture.completedFuture(List.<ServiceInstance>of());
                }
                return CompletableFuture.<List<ServiceInstance>>failedFuture(Failures.cause(failure));
            }
            List<CompletableFuture<ServiceInstance>> reads = new ArrayList<>();
            for (String id : ids.stream().sorted().toList()) {
                reads.add(client.getData(instancePath(name, id))
                        .thenApply(read -> ServiceInstance.decode(name, id, read.data()))
                        .exceptionally(gone -> null));   // unregistered between listing and reading
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done ->
                    reads.stream().map(CompletableFuture::join).filter(java.util.Objects::nonNull).toList());
        }).thenCompose(next -> next);
    }

    /** A local, watched list of {@code name}'s instances; start it before use. */
    public ServiceCache cache(String name) {
        return new ServiceCache(client, name, servicePath(name));
    }
}
