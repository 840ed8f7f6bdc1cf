package dev.warden.compat.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testing.WardenTestingCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.ha.ActiveStandbyElector.ActiveStandbyElectorCallback;
import org.apache.hadoop.ha.ActiveStandbyElector;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's {@code ActiveStandbyElector}, the election inside the HDFS failover controller
 * (ZKFC), with two NameNode stand-ins on a three-member Warden ensemble: one becomes active, it
 * stays active while the Warden leader is killed (its session moves), and when its session ends
 * the other fences it (its breadcrumb names it) before becoming active.
 */
class ActiveStandbyElectorOnWardenTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String PARENT = "/hadoop-ha/mycluster";

    private WardenTestingCluster warden;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();

    @BeforeEach
    void start() {
        warden = WardenTestingCluster.start(3);
    }

    @AfterEach
    void stop() {
        warden.close();
    }

    /** Records what a NameNode stand-in is told; counts two actives at once as an overlap. */
    private final class NameNode implements ActiveStandbyElectorCallback {
        final String name;
        volatile boolean isActive;
        /** A dead process runs no more code: callbacks still in flight change nothing. */
        volatile boolean dead;

        NameNode(String name) {
            this.name = name;
        }

        @Override
        public void becomeActive() {
            if (dead) {
                return;
            }
            if (!isActive) {
                isActive = true;
                if (active.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                }
            }
            events.add(name + ":active");
        }

        @Override
        public void becomeStandby() {
            stepDown();
            events.add(name + ":standby");
        }

        @Override
        public void enterNeutralMode() {
            events.add(name + ":neutral");
        }

        @Override
        public void notifyFatalError(String message) {
            events.add(name + ":fatal:" + message);
        }

        @Override
        public void fenceOldActive(byte[] data) {
            events.add(name + ":fenced:" + new String(data, StandardCharsets.UTF_8));
        }

        void die() {
            dead = true;
            stepDown();
        }

        void stepDown() {
            if (isActive) {
                isActive = false;
                active.decrementAndGet();
            }
        }
    }

    private ActiveStandbyElector elector(NameNode node) throws Exception {
        return new ActiveStandbyElector(warden.connectString(), 5000, PARENT, ZooDefs.Ids.OPEN_ACL_UNSAFE, List.of(),
                node, 3, null);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(20);
        }
    }

    @Test
    void oneActiveThroughAWardenLeaderKillAndTheStandbyFencesADeadActive() throws Exception {
        NameNode nn1 = new NameNode("nn1");
        NameNode nn2 = new NameNode("nn2");
        ActiveStandbyElector first = elector(nn1);
        ActiveStandbyElector second = elector(nn2);
        first.ensureParentZNode();
        assertTrue(first.parentZNodeExists());

        first.joinElection("nn1".getBytes(StandardCharsets.UTF_8));
        await(() -> nn1.isActive, "nn1 never became active: " + events);
        second.joinElection("nn2".getBytes(StandardCharsets.UTF_8));
        await(() -> events.contains("nn2:standby"), "nn2 never became standby: " + events);
        assertArrayEquals("nn1".getBytes(StandardCharsets.UTF_8), second.getActiveData());

        int beforeKill = events.size();
        warden.killLeader();
        // The sessions survive the Warden leader: once reconnected, nn1 confirms it still holds the
        // lock (active again) and nn2 that it does not (standby).
        await(() -> events.subList(beforeKill, events.size()).contains("nn1:active")
                        && events.subList(beforeKill, events.size()).contains("nn2:standby"),
                "after the Warden leader kill: " + events);
        assertTrue(nn1.isActive && !nn2.isActive, events.toString());

        // nn1's process dies: its session ends without a graceful quit, so its breadcrumb stays.
        nn1.die();
        first.terminateConnection();
        await(() -> nn2.isActive, "nn2 never took over: " + events);
        int fenced = events.indexOf("nn2:fenced:nn1");
        int activated = events.lastIndexOf("nn2:active");
        assertTrue(fenced >= 0 && fenced < activated, "nn2 must fence nn1 before it becomes active: " + events);
        assertArrayEquals("nn2".getBytes(StandardCharsets.UTF_8), second.getActiveData());
        assertEquals(0, overlaps.get(), "two actives at once: " + events);

        second.quitElection(false);
        System.out.println("elector events: " + events);
    }
}
