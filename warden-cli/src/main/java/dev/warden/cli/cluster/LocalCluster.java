package dev.warden.cli.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An ensemble of local member JVMs on loopback, for fault tests and benchmarks. {@link #create}
 * picks ports and writes every member's directory ({@code base/member-N/zoo.cfg},
 * {@code data/myid}); nothing runs until {@link #startAll()} or {@link #start(int)}.
 * {@link #close()} kills every member and leaves the files for a reader of the logs.
 */
public final class LocalCluster implements AutoCloseable {
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int SRVR_TIMEOUT_MS = 1000;
    private static final long POLL_INTERVAL_MS = 100;

    private final ClusterSpec spec;
    private final SortedMap<Integer, MemberProcess> members;
    /** Kills the members if the test JVM exits without closing us (a timeout, a Ctrl-C). */
    private final Thread killOnExit;

    private LocalCluster(ClusterSpec spec, SortedMap<Integer, MemberProcess> members) {
        this.spec = spec;
        this.members = members;
        this.killOnExit = new Thread(this::killAllQuietly, "local-cluster-kill-on-exit");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Picks free ports and writes each member's config and myid under {@code spec.baseDir()}. */
    public static LocalCluster create(ClusterSpec spec) throws IOException {
        return create(spec, 0);
    }

    /**
     * As {@link #create(ClusterSpec)}; with {@code firstClientPort} above 0, member N serves
     * clients on {@code firstClientPort + N - 1} (peer and election ports are still picked free).
     * When the spec's lines turn the AdminServer on without a port, each member gets a free one.
     */
    public static LocalCluster create(ClusterSpec spec, int firstClientPort) throws IOException {
        List<MemberPorts> picked = FreePorts.pickForMembers(spec.memberCount(),
                ZooCfg.needsAdminPorts(spec.extraConfigLines()));
        Map<Integer, MemberPorts> portsById = new LinkedHashMap<>();
        for (int id = 1; id <= spec.memberCount(); id++) {
            MemberPorts ports = picked.get(id - 1);
            if (firstClientPort > 0) {
                ports = new MemberPorts(firstClientPort + id - 1, ports.peerPort(), ports.electionPort(),
                        ports.adminPort());
            }
            portsById.put(id, ports);
        }
        return create(spec, portsById, PeerView.DIRECT);
    }

    /**
     * With ports the caller chose (ids 1..memberCount) and each member told to reach the others
     * where {@code view} says, for a relay between members.
     */
    public static LocalCluster create(ClusterSpec spec, Map<Integer, MemberPorts> portsById, PeerView view)
            throws IOException {
        return create(spec, portsById, Map.of(), view);
    }

    /**
     * As above, each member listening on the address {@code hostById} gives it (loopback when
     * absent): members in network namespaces of their own, say, reached from here through a bridge.
     */
    public static LocalCluster create(ClusterSpec spec, Map<Integer, MemberPorts> portsById,
                                      Map<Integer, String> hostById, PeerView view) throws IOException {
        for (int id = 1; id <= spec.memberCount(); id++) {
            if (!portsById.containsKey(id)) {
                throw new IllegalArgumentException("no ports for member " + id + "; given " + portsById.keySet());
            }
        }
        SortedMap<Integer, MemberProcess> members = new TreeMap<>();
        for (int id = 1; id <= spec.memberCount(); id++) {
            Path dir = spec.baseDir().resolve("member-" + id).toAbsolutePath();
            Files.createDirectories(dir);
            Path config = ZooCfg.write(spec, id, dir, dir.resolve("data"), portsById, hostById, view);
            members.put(id, new MemberProcess(id, portsById.get(id), hostById.getOrDefault(id, ZooCfg.HOST), dir,
                    config, spec));
        }
        return new LocalCluster(spec, members);
    }

    public ClusterSpec spec() {
        return spec;
    }

    public List<Integer> ids() {
        return List.copyOf(members.keySet());
    }

    public MemberProcess member(int id) {
        MemberProcess member = members.get(id);
        if (member == null) {
            throw new IllegalArgumentException("no member " + id + "; members are " + members.keySet());
        }
        return member;
    }

    /** Every member's client address, comma separated, as ZooKeeper clients take it. */
    public String connectString() {
        return members.values().stream().map(MemberProcess::connectString).collect(Collectors.joining(","));
    }

    public String connectString(int id) {
        return member(id).connectString();
    }

    public void startAll() throws IOException {
        for (MemberProcess member : members.values()) {
            member.start();
        }
    }

    public void start(int id) throws IOException {
        member(id).start();
    }

    public void kill9(int id) throws InterruptedException {
        member(id).kill9();
    }

    public void stop(int id) throws InterruptedException {
        member(id).stop(STOP_TIMEOUT);
    }

    public void pause(int id) throws InterruptedException {
        member(id).pause();
    }

    public void resume(int id) throws InterruptedException {
        member(id).resume();
    }

    /** SIGKILL if still running, then start again with the same directory and ports. */
    public void restart(int id) throws IOException, InterruptedException {
        member(id).kill9();
        member(id).start();
    }

    /** What the member answers to srvr now; a paused or stopped member is UNREACHABLE without asking. */
    public MemberMode mode(int id) {
        MemberProcess member = member(id);
        if (!member.isServingCandidate()) {
            return MemberMode.UNREACHABLE;
        }
        return MemberMode.probe(member.host(), member.ports().clientPort(), SRVR_TIMEOUT_MS);
    }

    /** Every member's mode, by id. */
    public SortedMap<Integer, MemberMode> modes() {
        SortedMap<Integer, MemberMode> modes = new TreeMap<>();
        for (int id : members.keySet()) {
            modes.put(id, mode(id));
        }
        return modes;
    }

    /** The ids that say they lead, over all members; more than one is a split brain. */
    public List<Integer> leaders() {
        return modes().entrySet().stream().filter(e -> e.getValue() == MemberMode.LEADER)
                .map(Map.Entry::getKey).toList();
    }

    /** The one leader, if exactly one member says it leads. */
    public Optional<Integer> leader() {
        List<Integer> leaders = leaders();
        return leaders.size() == 1 ? Optional.of(leaders.get(0)) : Optional.empty();
    }

    /** Running participants that are not the leader. */
    public List<Integer> followers() {
        return modes().entrySet().stream().filter(e -> e.getValue() == MemberMode.FOLLOWER)
                .map(Map.Entry::getKey).toList();
    }

    /** Waits until the member serves in an ensemble (leader, follower or observer). */
    public MemberMode awaitServing(int id, Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            MemberMode mode = mode(id);
            if (mode.servesInEnsemble()) {
                return mode;
            }
            requireNoneDied();
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("member " + id + " did not serve within " + timeout + " (mode "
                        + mode + "): " + describe());
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }

    /**
     * Waits until every running member serves in the ensemble with exactly one leader among them.
     * Members this side stopped or paused are not expected to serve.
     *
     * @return the leader's id
     */
    public int awaitQuorum(Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            SortedMap<Integer, MemberMode> modes = modes();
            boolean allServe = members.values().stream().filter(MemberProcess::isServingCandidate)
                    .allMatch(m -> modes.get(m.id()).servesInEnsemble());
            List<Integer> leaders = modes.entrySet().stream().filter(e -> e.getValue() == MemberMode.LEADER)
                    .map(Map.Entry::getKey).toList();
            if (allServe && leaders.size() == 1) {
                return leaders.get(0);
            }
            requireNoneDied();
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("no whole ensemble within " + timeout + ": modes " + modes
                        + "; " + describe());
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }

    /** Waits until exactly one member leads and it is not {@code formerLeader}. */
    public int awaitLeaderOtherThan(int formerLeader, Duration timeout) throws InterruptedException {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<Integer> leader = leader();
            if (leader.isPresent() && leader.get() != formerLeader) {
                return leader.get();
            }
            requireNoneDied();
            if (System.nanoTime() > deadlineNs) {
                throw new IllegalStateException("no leader other than " + formerLeader + " within " + timeout
                        + ": modes " + modes() + "; " + describe());
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }

    /**
     * A member this side started and did not stop has exited, or serves alone (its flavour did
     * not read the ensemble config): no point waiting for it.
     */
    private void requireNoneDied() {
        for (MemberProcess member : members.values()) {
            if (member.state() == MemberProcess.State.RUNNING && !member.isServingCandidate()) {
                throw new IllegalStateException("member " + member.id() + " died: " + describe());
            }
            if (member.isServingCandidate() && mode(member.id()) == MemberMode.STANDALONE) {
                throw new IllegalStateException("member " + member.id() + " runs standalone instead of joining the "
                        + spec.flavour() + " ensemble: " + describe());
            }
        }
    }

    /** Each member's state, pid or exit code, and log files: for failure messages. */
    public String describe() {
        return members.values().stream().map(MemberProcess::describe).collect(Collectors.joining("; "));
    }

    /** Kills every member and waits for them; files stay. */
    @Override
    public void close() throws InterruptedException {
        for (MemberProcess member : members.values()) {
            member.kill9();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it does what close just did
        }
    }

    /** Removes the base directory and everything in it; only after {@link #close()}. */
    public void deleteFiles() {
        if (members.values().stream().anyMatch(MemberProcess::isServingCandidate)) {
            throw new IllegalStateException("close the cluster before deleting its files");
        }
        try (Stream<Path> paths = Files.walk(spec.baseDir())) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + spec.baseDir(), e);
        }
    }

    private void killAllQuietly() {
        List<MemberProcess> all = new ArrayList<>(members.values());
        for (MemberProcess member : all) {
            try {
                member.kill9();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
