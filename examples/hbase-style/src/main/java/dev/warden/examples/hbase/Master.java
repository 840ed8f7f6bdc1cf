package dev.warden.examples.hbase;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.group.GroupView;
import dev.warden.recipes.group.MemberNode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A master candidate. As in HBase, the active master is whoever holds the ephemeral master
 * node; the others watch it and try again when it goes. The active master follows the region
 * servers' group and, whenever it changes, gives every region whose server is gone (or that
 * has none) to the live server with the fewest regions, moving the META location with the
 * META region.
 *
 * <p>Simplification: writes are not fenced against a deposed master that has not yet noticed
 * its session ended; a production system would make each write conditional on its mastership.
 */
final class Master implements AutoCloseable {
    private final WardenClient client;
    private final String name;
    private final ClusterPaths paths;
    private final List<String> regions;
    private final Consumer<String> log;
    /** Like HBase at cluster start: wait for this many servers before the first assignment. */
    private final int minServersToStart;
    private volatile boolean active;
    private volatile List<String> liveServers = List.of();
    private boolean reconciling;
    private boolean changedMeanwhile;

    Master(WardenClient client, String name, ClusterPaths paths, List<String> regions, int minServersToStart,
           Consumer<String> log) {
        this.client = client;
        this.name = name;
        this.paths = paths;
        this.regions = List.copyOf(regions);
        this.log = log;
        this.minServersToStart = minServersToStart;
    }

    String name() {
        return name;
    }

    boolean isActive() {
        return active;
    }

    /** Campaigns for mastership; completes once this master is active or standing by. */
    CompletableFuture<Void> start() {
        return EnsurePath.exists(client, paths.root()).thenCompose(ignored -> campaign());
    }

    private CompletableFuture<Void> campaign() {
        return client.create(paths.master(), name.getBytes(StandardCharsets.UTF_8), CreateMode.EPHEMERAL)
                .thenCompose(created -> becomeActive())
                .exceptionallyCompose(failure -> {
                    if (!Failures.is(failure, WardenException.NodeExistsException.class)) {
                        return CompletableFuture.failedFuture(Failures.cause(failure));
                    }
                    return client.exists(paths.master(), event -> campaign()).thenCompose(stat -> {
                        if (stat.isEmpty()) {
                            return campaign(); // it went between our create and our look
                        }
                        log.accept("[" + name + "] standing by");
                        return CompletableFuture.completedFuture(null);
                    });
                });
    }

    private CompletableFuture<Void> becomeActive() {
        active = true;
        log.accept("[" + name + "] is the active master");
        return EnsurePath.exists(client, paths.assignments())
                .thenCompose(ignored -> GroupView.follow(client, paths.regionServers(), this::serversChanged))
                .thenApply(view -> null);
    }

    private void serversChanged(List<MemberNode> members) {
        liveServers = members.stream().map(MemberNode::name).sorted().toList();
        log.accept("[" + name + "] region servers now " + liveServers);
        reconcile();
    }

    /** One pass at a time; a membership change during a pass triggers another. */
    private void reconcile() {
        synchronized (this) {
            if (reconciling) {
                changedMeanwhile = true;
                return;
            }
            reconciling = true;
            changedMeanwhile = false;
        }
        List<String> live = liveServers;
        Assignments.read(client, paths).thenCompose(current -> reassign(current, live)).whenComplete((ignored, failure) -> {
            if (failure != null) {
                log.accept("[" + name + "] reassignment failed: " + Failures.cause(failure));
            }
            boolean again;
            synchronized (this) {
                reconciling = false;
                again = changedMeanwhile;
            }
            if (again) {
                reconcile();
            }
        });
    }

    private CompletableFuture<Void> reassign(Map<String, String> current, List<String> live) {
        if (live.isEmpty()) {
            log.accept("[" + name + "] no region servers: regions wait");
            return CompletableFuture.completedFuture(null);
        }
        if (current.isEmpty() && live.size() < minServersToStart) {
            log.accept("[" + name + "] waiting for " + minServersToStart + " region servers before assigning");
            return CompletableFuture.completedFuture(null);
        }
        Map<String, String> planned = new TreeMap<>(current);
        planned.values().removeIf(server -> !live.contains(server));
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (String region : regions) {
            String holder = current.get(region);
            if (holder != null && live.contains(holder)) {
                continue;
            }
            String target = Assignments.leastLoaded(live, planned);
            planned.put(region, target);
            log.accept("[" + name + "] " + region + (holder == null ? "" : " (was on " + holder + ")") + " -> " + target);
            CompletableFuture<Void> write = Assignments.upsert(client, paths.assignment(region), target);
            if (region.equals(ClusterPaths.META_REGION)) {
                write = write.thenCompose(ignored -> Assignments.upsert(client, paths.metaLocation(), target));
            }
            writes.add(write);
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    /** Steps down (or dies, as far as others can tell): the session and the master node end. */
    @Override
    public void close() {
        active = false;
        client.close();
    }
}
