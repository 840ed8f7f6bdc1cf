package dev.warden.examples.hbase;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** Reads and writes region assignments (region name to server name). */
final class Assignments {
    private Assignments() {
    }

    static CompletableFuture<Map<String, String>> read(WardenClient client, ClusterPaths paths) {
        return client.getChildren(paths.assignments()).thenCompose(regions -> {
            Map<String, CompletableFuture<String>> reads = new TreeMap<>();
            for (String region : regions) {
                reads.put(region, client.getData(paths.assignment(region))
                        .thenApply(read -> new String(read.data(), StandardCharsets.UTF_8)));
            }
            return CompletableFuture.allOf(reads.values().toArray(CompletableFuture[]::new)).thenApply(ignored -> {
                Map<String, String> result = new TreeMap<>();
                reads.forEach((region, server) -> result.put(region, server.join()));
                return result;
            });
        }).exceptionally(failure -> {
            if (Failures.is(failure, WardenException.NoNodeException.class)) {
                return Map.of();
            }
            throw new IllegalStateException(Failures.cause(failure));
        });
    }

    /** Sets a node's data, creating it (and its parents) if it does not exist yet. */
    static CompletableFuture<Void> upsert(WardenClient client, String path, String value) {
        byte[] data = value.getBytes(StandardCharsets.UTF_8);
        return client.setData(path, data).<Void>thenApply(stat -> null).exceptionallyCompose(failure -> {
            if (!Failures.is(failure, WardenException.NoNodeException.class)) {
                return CompletableFuture.failedFuture(Failures.cause(failure));
            }
            return EnsurePath.exists(client, EnsurePath.parentOf(path))
                    .thenCompose(ignored -> client.create(path, data, CreateMode.PERSISTENT))
                    .thenApply(created -> null);
        });
    }

    /** The live server holding the fewest regions (ties broken by name). */
    static String leastLoaded(List<String> liveServers, Map<String, String> assignments) {
        return liveServers.stream().sorted().min((a, b) -> Long.compare(
                assignments.values().stream().filter(a::equals).count(),
                assignments.values().stream().filter(b::equals).count())).orElseThrow();
    }
}
