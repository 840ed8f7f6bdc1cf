package dev.warden.testing;

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
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * A Warden ensemble whose members all run inside the test's JVM on free loopback ports, shaped
 * like Curator's {@code TestingCluster}: a connect string naming every member, {@link #kill(long)}
 * and {@link #restart(long)} of one member, {@link #stop()} and {@link #close()}, which discards
 * the members' data.
 *
 * <pre>{@code
 * try (WardenTestingCluster cluster = WardenTestingCluster.start(3)) {
 *     long old = cluster.killLeader();          // another member leads when this returns
 *     cluster.restart(old);
 * }
 * }</pre>
 *
 * <p>Killing a member closes it: its sockets go away at once, as when its process dies, and its
 * data stays for a restart. Members run in memory by default (see {@link WardenTestingServer}):
 * every member's data directory is on one in-memory file system of the ensemble's.
 */
public final class WardenTestingCluster implements AutoCloseable {
    /**
     * Init and sync limits of 25 ticks (12.5 s): a loaded CI host stalls for a second now and
     * then, and that must not make a follower drop its leader in the middle of a test. A killed
     * member closes its sockets, so its loss is still noticed at once.
     */
    private static final int LIMIT_TICKS = 25;
    private static final long POLL_MS = 20;
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final TestDirectory directory;
    private final SortedMap<Long, ServerConfig> configs = new TreeMap<>();
    private final SortedMap<Long, WardenServer> running = new TreeMap<>();
    private boolean closed;

    private WardenTestingCluster(int members, boolean inMemory, UnaryOperator<ServerConfig.Builder> customizer) {
        if (members < 2) {
            // a cluster is for what only an ensemble does (followers, leader changes); one server is a WardenTestingServer
            throw new IllegalArgumentException("an ensemble needs at least 2 members, not " + members
                    + "; for one server use WardenTestingServer");
        }
        this.directory = inMemory ? TestDirectory.inMemory() : TestDirectory.temporaryOnDisk();
        Map<Long, QuorumMember> lines = new TreeMap<>();
        for (long id = 1; id <= members; id++) {
            lines.put(id, new QuorumMember(id, "127.0.0.1", LoopbackPorts.pick(), LoopbackPorts.pick(), false, null, 0));
        }
        for (long id = 1; id <= members; id++) {
            Path dataDir = directory.path().resolve("member-" + id);
            ServerConfig.Builder builder = TestServerSettings.base(dataDir, LoopbackPorts.pick(), inMemory)
                    .serverId((int) id)
                    .members(lines)
                    .standaloneEnabled(false)
                    .initLimitTicks(LIMIT_TICKS)
                    .syncLimitTicks(LIMIT_TICKS);
            configs.put(id, customizer.apply(builder).build());
        }
    }

    /** Starts an in-memory ensemble of {@code members} and waits until it serves with one leader. */
    public static WardenTestingCluster start(int members) {
        return builder(members).start();
    }

    public static Builder builder(int members) {
        return new Builder(members);
    }

    /** Starts every member that is not running and waits until all serve with one leader. */
    public synchronized void startAll() {
        requireOpen();
        for (long id : configs.keySet()) {
            if (!running.containsKey(id)) {
                startMember(id);
            }
        }
        awaitServing(DEFAULT_TIMEOUT);
    }

    private void startMember(long id) {
        try {
            running.put(id, WardenServer.start(configs.get(id)));
        } catch (IOException e) {
            throw new UncheckedIOException("member " + id + " did not start", e);
        }
    }

    /** Kills one member (its data stays); the others go on serving if they are a quorum. */
    public synchronized void kill(long id) {
        WardenServer server = running.remove(requireMember(id));
        if (server == null) {
            throw new IllegalStateException("member " + id + " is not running");
        }
        server.close();
    }

    /** Starts a killed member again on its data and ports and waits until the ensemble serves. */
    public synchronized void restart(long id) {
        requireOpen();
        requireMember(id);
        if (running.containsKey(id)) {
            kill(id);
        }
        startMember(id);
        awaitServing(DEFAULT_TIMEOUT);
    }

    /** Kills the leader and waits until another member leads; returns the killed member's id. */
    public synchronized long killLeader() {
        long leader = awaitServing(DEFAULT_TIMEOUT);
        kill(leader);
        awaitServing(DEFAULT_TIMEOUT);
        return leader;
    }

    /**
     * Waits until every running member serves clients and exactly one of them leads; returns the
     * leader's id. Fails with the members' roles if that does not happen within {@code timeout}.
     */
    public synchronized long awaitServing(Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<Long, String> roles = roles();
            List<Long> leaders = roles.entrySet().stream().filter(e -> e.getValue().equals("leader"))
                    .map(Map.Entry::getKey).toList();
            boolean allServe = roles.values().stream().allMatch(r -> r.equals("leader") || r.equals("follower")
                    || r.equals("observer") || r.equals("standalone"));
            if (allServe && leaders.size() == 1) {
                return leaders.get(0);
            }
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("the ensemble did not serve with one leader within " + timeout
                        + ": " + roles);
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the ensemble", e);
            }
        }
    }

    /** The running members' roles as their {@code srvr} reports them ("not serving" if it does not answer). */
    public synchronized Map<Long, String> roles() {
        Map<Long, String> roles = new TreeMap<>();
        for (long id : running.keySet()) {
            ServerConfig config = configs.get(id);
            roles.put(id, ServerRole.of(config.clientPortAddress(), config.clientPort()).orElse("not serving"));
        }
        return roles;
    }

    /** The id of the running member that leads, if one does now. */
    public synchronized Optional<Long> leader() {
        return roles().entrySet().stream().filter(e -> e.getValue().equals("leader")).map(Map.Entry::getKey)
                .findFirst();
    }

    /** Every member's {@code host:port}, so clients fail over between them. */
    public String connectString() {
        return configs.values().stream().map(c -> c.clientPortAddress() + ":" + c.clientPort())
                .collect(Collectors.joining(","));
    }

    /** One member's {@code host:port}. */
    public String connectString(long id) {
        ServerConfig config = configs.get(requireMember(id));
        return config.clientPortAddress() + ":" + config.clientPort();
    }

    /** The member ids, 1..n. */
    public List<Long> memberIds() {
        return new ArrayList<>(configs.keySet());
    }

    public synchronized boolean isRunning(long id) {
        return running.containsKey(requireMember(id));
    }

    /** Where a member keeps its data (in memory: a path on the ensemble's in-memory file system). */
    public Path dataDirectory(long id) {
        return configs.get(requireMember(id)).dataDir();
    }

    /** Stops every member; their data stays until {@link #close()}. */
    public synchronized void stop() {
        for (WardenServer server : running.values()) {
            server.close();
        }
        running.clear();
    }

    /** Stops every member and discards their data (frees the in-memory file system or deletes the directories). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        closed = true;
        directory.close();
    }

    private long requireMember(long id) {
        if (!configs.containsKey(id)) {
            throw new IllegalArgumentException("no member " + id + " (members are " + configs.keySet() + ")");
        }
        return id;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the test ensemble is closed");
        }
    }

    /** Settings of a {@link WardenTestingCluster}. */
    public static final class Builder {
        private final int members;
        private boolean inMemory = true;
        private UnaryOperator<ServerConfig.Builder> customizer = UnaryOperator.identity();

        private Builder(int members) {
            this.members = members;
        }

        /** True (default): data on an in-memory file system, no fsync. False: temporary disk directories, fsync on. */
        public Builder inMemory(boolean value) {
            this.inMemory = value;
            return this;
        }

        /** Changes member settings beyond the test defaults; applied to every member. */
        public Builder configure(UnaryOperator<ServerConfig.Builder> value) {
            this.customizer = value;
            return this;
        }

        /** Builds the ensemble without starting it ({@link WardenTestingCluster#startAll()} starts it). */
        public WardenTestingCluster build() {
            return new WardenTestingCluster(members, inMemory, customizer);
        }

        public WardenTestingCluster start() {
            WardenTestingCluster cluster = build();
            try {
                cluster.startAll();
                return cluster;
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }
    }
}
