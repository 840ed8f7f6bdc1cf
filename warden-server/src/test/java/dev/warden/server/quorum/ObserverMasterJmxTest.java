package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.QuorumMember;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import javax.management.Attribute;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An observer's bean under ZooKeeper's name ({@code name2=Observer}) through the platform MBean
 * server: its LearnerMaster attribute names the member it syncs from, and setting it (a member id,
 * or an address) moves the observer to that voter; a value that cannot be a master is refused
 * with ZooKeeper's "Not a valid learner master" and changes nothing.
 */
class ObserverMasterJmxTest {
    private static final long TIMEOUT_MS = 30_000;
    private static final long OBSERVER = 4;
    private static final List<Long> VOTERS = List.of(1L, 2L, 3L);
    private static final String LEARNER_MASTER = "LearnerMaster";

    @TempDir
    Path dir;

    private TestEnsemble ensemble;

    @AfterEach
    void tearDown() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void theObserverBeanShowsItsLearnerMasterAndMovesItWhenSet() throws Exception {
        ensemble = TestEnsemble.startedWithObserverMasters(dir, VOTERS, List.of(OBSERVER), TIMEOUT_MS);
        MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
        ObjectName observerBean = new ObjectName("org.apache.ZooKeeperService:name0=ReplicatedServer_id" + OBSERVER
                + ",name1=replica." + OBSERVER + ",name2=Observer");
        await(() -> beans.isRegistered(observerBean) && observerSyncsFrom() > 0, "the observer bean and a master");

        long first = observerSyncsFrom();
        awaitLearnerMaster(beans, observerBean, first);

        // by id: another voter
        long second = VOTERS.stream().filter(id -> id != first).findFirst().orElseThrow();
        beans.setAttribute(observerBean, new Attribute(LEARNER_MASTER, Long.toString(second)));
        awaitLearnerMaster(beans, observerBean, second);

        // by address, as the attribute shows it: the third voter
        long third = VOTERS.stream().filter(id -> id != first && id != second).findFirst().orElseThrow();
        beans.setAttribute(observerBean, new Attribute(LEARNER_MASTER, address(third)));
        awaitLearnerMaster(beans, observerBean, third);

        for (String invalid : List.of("99", Long.toString(OBSERVER), "no-such-host:1", "")) {
            Exception refused = assertThrows(Exception.class,
                    () -> beans.setAttribute(observerBean, new Attribute(LEARNER_MASTER, invalid)));
            assertTrue(causes(refused, "Not a valid learner master"), invalid + ": " + refused);
        }
        assertEquals(third, observerSyncsFrom(), "a refused value moved the observer");
        assertEquals(address(third), beans.getAttribute(observerBean, LEARNER_MASTER));
    }

    /** The peer address of {@code id}'s server line, as the bean shows a master. */
    private String address(long id) {
        QuorumMember line = ensemble.server(OBSERVER).config().members().get(id);
        return line.host() + ":" + line.peerPort();
    }

    private void awaitLearnerMaster(MBeanServer beans, ObjectName bean, long id) throws Exception {
        String wanted = address(id);
        await(() -> observerSyncsFrom() == id && wanted.equals(attribute(beans, bean)),
                "the observer syncs from " + id + " and its bean says " + wanted);
    }

    private static Object attribute(MBeanServer beans, ObjectName bean) {
        try {
            return beans.getAttribute(bean, LEARNER_MASTER);
        } catch (Exception notYet) {
            return null; // the role bean is re-registered while the observer rejoins
        }
    }

    private static boolean causes(Throwable thrown, String message) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException && message.equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }

    /** The member the serving observer syncs from (its figures, published every 100 ms), or -1. */
    private long observerSyncsFrom() {
        var server = ensemble.server(OBSERVER);
        OptionalLong master = server.member().status().observerMasterId();
        return server.member().isServing() && master.isPresent() ? master.getAsLong() : -1;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + TIMEOUT_MS + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }
}
