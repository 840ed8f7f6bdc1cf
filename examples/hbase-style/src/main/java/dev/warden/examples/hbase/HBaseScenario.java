package dev.warden.examples.hbase;

import dev.warden.client.WardenClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The demo's story against any Warden (or ZooKeeper) server: two master candidates, three
 * region servers, a client following META. It kills the region server holding META, then the
 * active master, then another region server, and waits after each step for the cluster to
 * repair itself.
 */
public final class HBaseScenario {
    /** What the story ended with. */
    public record Outcome(Map<String, String> assignmentsAfterFirstCrash, Map<String, String> finalAssignments,
                          List<String> metaLocationsSeen, String firstMetaServer, String finalActiveMaster,
                          List<String> crashedServers) {
    }

    private static final int SERVER_COUNT = 3;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

    private final String connectString;
    private final ClusterPaths paths;
    private final int regionCount;
    private final Consumer<String> log;
    private final List<AutoCloseable> running = new ArrayList<>();

    public HBaseScenario(String connectString, String root, int regionCount, Consumer<String> log) {
        if (regionCount < 1) {
            throw new IllegalArgumentException("regionCount must be at least 1, got " + regionCount);
        }
        this.connectString = connectString;
        this.paths = new ClusterPaths(root);
        this.regionCount = regionCount;
        this.log = log;
    }

    public Outcome run() {
        try {
            return tell();
        } finally {
            for (AutoCloseable closeable : running) {
                try {
                    closeable.close();
                } catch (Exception ignored) {
                    // already crashed on purpose
                }
            }
        }
    }

    private Outcome tell() {
        List<String> regions = new ArrayList<>();
        regions.add(ClusterPaths.META_REGION);
        for (int i = 1; i <= regionCount; i++) {
            regions.add(String.format("region-%02d", i));
        }
        Master masterA = startMaster("master-a", regions);
        Master masterB = startMaster("master-b", regions);
        List<RegionServer> servers = new ArrayList<>();
        for (int i = 1; i <= SERVER_COUNT; i++) {
            RegionServer server = RegionServer.start(connect(), "rs-" + i, 16020 + i, paths, log, STEP_TIMEOUT);
            running.add(server);
            servers.add(server);
        }
        WardenClient observer = connect();
        MetaLocator metaClient = new MetaLocator(connect(), paths, log, STEP_TIMEOUT);
        running.add(metaClient);

        await("every region assigned", () -> assignments(observer).keySet().containsAll(regions));
        Map<String, String> initial = assignments(observer);
        log.accept("[demo] assignments: " + initial);
        String metaServer = initial.get(ClusterPaths.META_REGION);
        await("the client knows where META is", () -> metaServer.equals(metaClient.current()));

        RegionServer victim = servers.stream().filter(s -> s.name().equals(metaServer)).findFirst().orElseThrow();
        List<String> crashed = new ArrayList<>(List.of(victim.name()));
        victim.crash();
        await("regions moved off " + victim.name(), () -> isRepaired(observer, regions, crashed));
        Map<String, String> afterFirst = assignments(observer);
        log.accept("[demo] assignments: " + afterFirst);
        await("the client follows META's move", () -> afterFirst.get(ClusterPaths.META_REGION).equals(metaClient.current()));

        Master active = masterA.isActive() ? masterA : masterB;
        Master standby = active == masterA ? masterB : masterA;
        log.accept("[demo] killing the active master " + active.name());
        active.close();
        await(standby.name() + " takes over", standby::isActive);

        RegionServer second = servers.stream().filter(s -> !crashed.contains(s.name())).findFirst().orElseThrow();
        crashed.add(second.name());
        second.crash();
        await("regions moved off " + second.name(), () -> isRepaired(observer, regions, crashed));
        Map<String, String> finalAssignments = assignments(observer);
        log.accept("[demo] assignments: " + finalAssignments);
        String finalMeta = finalAssignments.get(ClusterPaths.META_REGION);
        await("the client follows META", () -> finalMeta.equals(metaClient.current()));
        log.accept("[demo] done: the cluster survived two region server crashes and a master crash");
        return new Outcome(afterFirst, finalAssignments, metaClient.locationsSeen(), metaServer, standby.name(), crashed);
    }

    private boolean isRepaired(WardenClient observer, List<String> regions, List<String> crashed) {
        Map<String, String> now = assignments(observer);
        return now.keySet().containsAll(regions) && now.values().stream().noneMatch(crashed::contains);
    }

    private Master startMaster(String name, List<String> regions) {
        Master master = new Master(connect(), name, paths, regions, SERVER_COUNT, log);
        running.add(master);
        master.start().join();
        return master;
    }

    private WardenClient connect() {
        WardenClient client = WardenClient.builder().connectString(connectString).sessionTimeout(SESSION_TIMEOUT)
                .connect().join();
        running.add(client);
        return client;
    }

    private Map<String, String> assignments(WardenClient observer) {
        return Assignments.read(observer, paths).join();
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadlineNs = System.nanoTime() + STEP_TIMEOUT.toNanos();
        // the narrator polls to keep the story simple; the cluster itself only reacts to watches
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("gave up waiting for: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for: " + what, e);
            }
        }
    }
}
