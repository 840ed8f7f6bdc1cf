package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Members in separate JVMs on loopback, three serving a write load, a fourth added by
 * {@code reconfig}, and kill -9 in the middle of the change: once the joining member, once the
 * leader. After the killed member restarts: one leader, every acknowledged write on every member,
 * the same tree everywhere, every member showing the same /zookeeper/config (the one with the
 * fourth member; the change is sent again if the crash lost it), and the clients served
 * throughout. Runs per flavour as {@link EnsembleFaultTest} does.
 */
class ReconfigCrashTest {
    private static final int TICK_TIME_MS = 500;
    private static final int SESSION_TIMEOUT_MS = 6_000;
    private static final int LOAD_SESSIONS = 4;
    private static final int KEYS_PER_SESSION = 25;
    private static final int PROGRESS_WRITES = 10;
    private static final int JOINER = 4;
    private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONFIG_TIMEOUT = Duration.ofSeconds(60);

    static List<Flavour> flavours() {
        return Ensembles.flavours();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flavours")
    void joinerKilledDuringItsAdditionRestartsAndTheEnsembleAgrees(Flavour flavour) throws Exception {
        crashDuringAddition(flavour, "joiner", false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flavours")
    void leaderKilledDuringAnAdditionRestartsAndTheEnsembleAgrees(Flavour flavour) throws Exception {
        crashDuringAddition(flavour, "leader", true);
    }

    /**
     * The leader killed once the joiner serves: the change is in the leader's log by then (the
     * joiner is reached only once a change names it), committed or about to be.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("flavours")
    void leaderKilledOnceTheJoinerServesRestartsAndTheEnsembleAgrees(Flavour flavour) throws Exception {
        crashDuringAddition(flavour, "leader-after-join", true);
    }

    private void crashDuringAddition(Flavour flavour, String name, boolean killLeader) throws Exception {
        LocalCluster cluster = threeMembersAndAJoiner(flavour, Ensembles.runDir("reconfig-" + name + "-" + flavour));
        boolean passed = false;
        try (WriteLoad load = WriteLoad.start(cluster, LOAD_SESSIONS, KEYS_PER_SESSION, SESSION_TIMEOUT_MS)) {
            load.awaitEveryClientProgresses(PROGRESS_WRITES, PROGRESS_TIMEOUT, "before the change");
            int leader = cluster.awaitQuorum(ELECTION_TIMEOUT);
            String joinerLine = joinerLine(cluster);
            cluster.start(JOINER);
            int victim = killLeader ? leader : JOINER;
            try (ZooKeeperAdmin admin = admin(cluster.connectString(leader))) {
                // sent straight to the leader, and the member killed before the answer can come
                admin.reconfigure(joinerLine, null, null, -1, (rc, path, ctx, data, stat) -> { }, null);
                if (name.endsWith("-after-join")) {
                    cluster.awaitServing(JOINER, ELECTION_TIMEOUT);
                }
                cluster.kill9(victim);
            }
            if (killLeader) {
                cluster.awaitLeaderOtherThan(victim, ELECTION_TIMEOUT);
            }
            load.awaitEveryClientProgresses(PROGRESS_WRITES, PROGRESS_TIMEOUT, name + " " + victim + " killed");
            cluster.start(victim);
            // a joiner the lost change never named serves only once a change names it: wait for that first
            String outcome = addUntilEveryMemberShowsIt(cluster, joinerLine);
            cluster.awaitQuorum(ELECTION_TIMEOUT);
            load.awaitEveryClientProgresses(PROGRESS_WRITES, PROGRESS_TIMEOUT, name + " " + victim + " restarted");
            load.stop();
            cluster.awaitQuorum(ELECTION_TIMEOUT);
            EnsembleChecks.exactlyOneLeader(cluster);
            EnsembleChecks.allMembersAgreeAndKeepEveryAcknowledgedWrite(cluster, load.ledgers());
            System.out.println(flavour + " reconfig with the " + name + " killed: " + outcome + "; " + load.summary());
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    /**
     * Four members' files, with members 1–3 listing only themselves (member 4 lists all four,
     * as a joiner does), reconfigEnabled and skipACL so any session may change the members;
     * 1–3 started and serving.
     */
    private static LocalCluster threeMembersAndAJoiner(Flavour flavour, Path runDir) throws Exception {
        ClusterSpec spec = Ensembles.specBuilder(flavour, runDir).participants(4).tickTimeMs(TICK_TIME_MS)
                .configLine("reconfigEnabled=true").configLine("skipACL=yes").build();
        LocalCluster cluster = LocalCluster.create(spec);
        try {
            for (int id = 1; id < JOINER; id++) {
                Path zooCfg = cluster.member(id).configFile();
                List<String> kept = Files.readAllLines(zooCfg, StandardCharsets.UTF_8).stream()
                        .filter(line -> !line.startsWith("server." + JOINER + "=")).toList();
                Files.writeString(zooCfg, String.join("\n", kept) + "\n", StandardCharsets.UTF_8);
                cluster.start(id);
            }
            cluster.awaitQuorum(ELECTION_TIMEOUT);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    private static String joinerLine(LocalCluster cluster) throws Exception {
        for (String line : Files.readAllLines(cluster.member(JOINER).configFile(), StandardCharsets.UTF_8)) {
            if (line.startsWith("server." + JOINER + "=")) {
                return line;
            }
        }
        throw new AssertionError("member " + JOINER + "'s zoo.cfg has no line of its own");
    }

    private static ZooKeeperAdmin admin(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeperAdmin admin = new ZooKeeperAdmin(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            admin.close();
            throw new IllegalStateException("no session with " + connectString);
        }
        return admin;
    }

    /**
     * Waits until every member's /zookeeper/config (read after a sync) is the same and names the
     * joiner; if the crash lost the change, it is sent again. Says which happened.
     */
    private static String addUntilEveryMemberShowsIt(LocalCluster cluster, String joinerLine) throws Exception {
        String named = "server." + JOINER + "=";
        long deadlineNs = System.nanoTime() + CONFIG_TIMEOUT.toNanos();
        Map<Integer, String> configs = new TreeMap<>();
        boolean sentAgain = false;
        while (System.nanoTime() < deadlineNs) {
            configs.clear();
            for (int id : cluster.ids()) {
                configs.put(id, configOf(cluster, id));
            }
            boolean agreed = configs.values().stream().distinct().count() == 1;
            if (agreed && configs.get(1).contains(named)) {
                return sentAgain ? "the change was lost and sent again" : "the change survived the crash";
            }
            if (configs.values().stream().noneMatch(c -> c.contains(named))) {
                try (ZooKeeperAdmin admin = admin(cluster.connectString())) {
                    admin.reconfigure(joinerLine, null, null, -1, new Stat());
                    sentAgain = true;
                } catch (KeeperException retryLater) {
                    // a change still in progress, or the new quorum not synchronized yet
                }
            }
            Thread.sleep(200);
        }
        assertEquals(1, configs.values().stream().distinct().count(), "members' /zookeeper/config: " + configs);
        throw new AssertionError("member " + JOINER + " is in no member's /zookeeper/config: " + configs);
    }

    /** Member {@code id}'s /zookeeper/config after a sync, or a note that it does not serve. */
    private static String configOf(LocalCluster cluster, int id) throws Exception {
        if (!cluster.mode(id).servesInEnsemble()) {
            return "(member " + id + " does not serve)";
        }
        try (ZooKeeperAdmin admin = admin(cluster.connectString(id))) {
            CountDownLatch synced = new CountDownLatch(1);
            admin.sync("/zookeeper/config", (rc, path, ctx) -> synced.countDown(), null);
            synced.await(10, TimeUnit.SECONDS);
            return new String(admin.getConfig(false, new Stat()), StandardCharsets.UTF_8);
        } catch (KeeperException | IllegalStateException notNow) {
            return "(member " + id + ": " + notNow.getMessage() + ")";
        }
    }
}
