package dev.warden.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.server.net.FourLetterWordClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Members start as separate JVMs from the test's class path and report the mode asked for. */
class DeploymentTest {
    private static final long READY_TIMEOUT_MS = 120_000;
    private static final JvmSettings JVM = JvmSettings.ofThisJvm(128);

    @TempDir
    Path dir;

    @Test
    void bothFlavoursServeStandalone() throws Exception {
        for (Flavour flavour : Flavour.values()) {
            try (Deployment deployment = Deployment.start(flavour, Topology.STANDALONE, dir.resolve(flavour.name()),
                    JVM, READY_TIMEOUT_MS)) {
                String[] hostPort = deployment.connectString().split(":");
                String srvr = FourLetterWordClient.send(hostPort[0], Integer.parseInt(hostPort[1]), "srvr", 5000);
                assertEquals("standalone", StandaloneLauncher.modeIn(srvr), srvr);
            }
        }
    }

    @Test
    void apacheEnsembleElectsOneLeaderAmongThreeMembers() throws Exception {
        try (Deployment deployment = Deployment.start(Flavour.APACHE, Topology.ENSEMBLE3, dir, JVM, READY_TIMEOUT_MS)) {
            List<String> modes = new ArrayList<>();
            for (String member : deployment.connectString().split(",")) {
                String[] hostPort = member.split(":");
                modes.add(StandaloneLauncher.modeIn(FourLetterWordClient.send(hostPort[0], Integer.parseInt(hostPort[1]), "srvr", 5000)));
            }
            assertEquals(3, modes.size());
            assertEquals(1, modes.stream().filter("leader"::equals).count(), modes::toString);
            assertEquals(2, modes.stream().filter("follower"::equals).count(), modes::toString);
        }
    }

    /** Until Warden has an ensemble mode its members serve standalone; that must read as "not available". */
    @Test
    void wardenEnsembleEitherElectsALeaderOrIsReportedNotAvailable() throws Exception {
        try (Deployment deployment = Deployment.start(Flavour.WARDEN, Topology.ENSEMBLE3, dir, JVM, READY_TIMEOUT_MS)) {
            assertEquals(3, deployment.connectString().split(",").length);
        } catch (DeploymentUnavailableException e) {
            assertTrue(e.getMessage().startsWith("Warden"), e.getMessage());
        }
    }

    @Test
    void aMemberThatDiesIsReportedWithTheFatalLineOfItsLog() throws Exception {
        try (Deployment deployment = Deployment.start(Flavour.WARDEN, Topology.STANDALONE, dir, JVM, READY_TIMEOUT_MS)) {
            assertEquals(List.of(), deployment.deadMembers());
            // The member is this test JVM's only child. Its command line is not used to find it: Linux
            // reports none when the arguments pass a page (a long class path in a deep checkout).
            List<ProcessHandle> children = ProcessHandle.current().children().toList();
            assertEquals(1, children.size(), children::toString);
            ProcessHandle member = children.get(0);
            Files.writeString(dir.resolve("warden-standalone").resolve("server.log"),
                    "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n",
                    StandardOpenOption.APPEND);
            member.destroyForcibly();
            member.onExit().get();
            List<String> dead = deployment.deadMembers();
            assertEquals(1, dead.size(), dead::toString);
            assertTrue(dead.get(0).startsWith("exited with status "), dead::toString);
            assertTrue(dead.get(0).endsWith("java.lang.OutOfMemoryError: Java heap space"), dead::toString);
        }
    }

    @Test
    void bothFlavoursGetTheSameJvmOptions() {
        List<String> options = Deployment.memberJvmOptions(JVM);
        assertTrue(options.containsAll(List.of("-Xms128m", "-Xmx128m", "-Djute.maxbuffer=" + (4 << 20))), options::toString);
    }

    @Test
    void largeValuesRunLastSoAnOutOfMemoryDeathCannotPoisonLaterScenarios() {
        List<Scenario> all = Suite.standard();
        assertEquals("large1MiB", all.get(all.size() - 1).name());
    }

    @Test
    void launcherFailuresKeepTheirHeadlineOnly() {
        assertEquals("member 2 runs standalone instead of joining the WARDEN ensemble", EnsembleLauncher.headline(
                "member 2 runs standalone instead of joining the WARDEN ensemble: member 1 (RUNNING, pid 1); member 2"));
        assertEquals("no whole ensemble within PT1S: modes {1=LEADER}", EnsembleLauncher.headline(
                "no whole ensemble within PT1S: modes {1=LEADER}; member 1 (RUNNING, pid 1)"));
        assertEquals("plain", EnsembleLauncher.headline("plain"));
    }

    @Test
    void srvrModeLineIsFound() {
        assertEquals("follower", StandaloneLauncher.modeIn("Zookeeper version: 3.9.5\nLatency min/avg/max: 0/0/0\nMode: follower\n"));
        assertEquals(null, StandaloneLauncher.modeIn("This ZooKeeper instance is not currently serving requests\n"));
    }
}
