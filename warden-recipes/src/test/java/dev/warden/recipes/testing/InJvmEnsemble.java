package dev.warden.recipes.testing;

import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A three-member Warden ensemble inside this JVM on free loopback ports, for recipe tests that
 * lose the leader mid-way. Members can be stopped (a clean close: sockets go away at once, as
 * after a crash) and started again on the same directory and ports.
 */
final class InJvmEnsemble implements AutoCloseable {
    private static final int MEMBERS = 3;
    /** 200 ms ticks; init and sync limits as {@link EnsembleTestLimits} explains. */
    private static final int TICK_MS = 200;
    private static final long POLL_MS = 20;

    private final SortedMap<Long, ServerConfig> configs = new TreeMap<>();
    private final SortedMap<Long, WardenServer> running = new TreeMap<>();

    InJvmEnsemble(Path baseDir, int minSessionTimeoutMs, int maxSessionTimeoutMs) {
        Map<Long, QuorumMember> members = new TreeMap<>();
        for (long id = 1; id <= MEMBERS; id++) {
            members.put(id, new QuorumMember(id, "127.0.0.1", FreePorts.pick(), FreePorts.pick(), false, null, 0));
        }
        for (long id = 1; id <= MEMBERS; id++) {
            configs.put(id, ServerConfig.builder()
                    .dataDir(baseDir.resolve("member-" + id))
                    .clientPort(FreePorts.pick())
                    .clientPortAddress("127.0.0.1")
                    .serverId((int) id)
                    .members(members)
                    .tickTimeMs(TICK_MS)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .minSessionTimeoutMs(minSessionTimeoutMs)
                    .maxSessionTimeoutMs(maxSessionTimeoutMs)
                    .forceSync(false)
                    .preAllocSizeBytes(1024 * 1024)
                    .maxClientCnxns(1000)
                    .build());
        }
    }

    synchronized void startAll(Duration timeout) {
        for (long id : configs.keySet()) {
            start(id);
        }
        awaitAllServing(timeout);
    }

    synchronized void start(long id) {
        if (running.containsKey(id)) {
            throw new IllegalStateException("member " + id + " already runs");
        }
        try {
            running.put(id, WardenServer.start(configs.get(id)));
        } catch (IOException e) {
            throw new UncheckedIOException("member " + id + " did not start", e);
        }
    }

    synchronized void stop(long id) {
        WardenServer server = running.remove(id);
        if (server == null) {
            throw new IllegalStateException("member " + id + " is not running");
        }
        server.close();
    }

    /** Every member's client address, so clients fail over. */
    String connectString() {
        return configs.values().stream().map(c -> c.clientPortAddress() + ":" + c.clientPort())
                .collect(Collectors.joining(","));
    }

    /** The running member that leads and serves, if any. */
    synchronized Optional<Long> leader() {
        return running.entrySet().stream()
                .filter(e -> e.getValue().member().isLeading() && e.getValue().member().isServing())
                .map(Map.Entry::getKey).findFirst();
    }

    /** Waits until every running member serves and exactly one leads; returns the leader. */
    synchronized long awaitAllServing(Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean allServe = running.values().stream().allMatch(s -> s.member().isServing());
            long leaders = running.values().stream().filter(s -> s.member().isLeading()).count();
            Optional<Long> leader = leader();
            if (allServe && leaders == 1 && leader.isPresent()) {
                return leader.get();
            }
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("ensemble not serving within " + timeout + ": " + describe());
            }
            sleep();
        }
    }

    /** Stops the current leader and waits until another member leads; returns the stopped id. */
    synchronized long killLeader(Duration timeout) {
        long leader = awaitAllServing(timeout);
        stop(leader);
        awaitAllServing(timeout);
        return leader;
    }

    /** Each running member's role, for failure messages. */
    synchronized String describe() {
        List<String> parts = new ArrayList<>();
        for (long id : configs.keySet()) {
            WardenServer server = running.get(id);
            parts.add(id + "=" + (server == null ? "stopped"
                    : server.member().role() + (server.member().isServing() ? "" : "(not serving)")));
        }
        return String.join(", ", parts);
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the ensemble", e);
        }
    }

    @Override
    public synchronized void close() {
        for (WardenServer server : running.values()) {
            server.close();
        }
        running.clear();
    }
}
