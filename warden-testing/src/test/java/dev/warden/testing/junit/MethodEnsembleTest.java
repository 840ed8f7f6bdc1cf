package dev.warden.testing.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testing.WardenTestingCluster;
import dev.warden.testing.WardenTestingServer;
import dev.warden.testing.Zk;
import java.nio.file.Path;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

class MethodEnsembleTest {
    private static Path lastDirectory;

    @Test
    @WithWardenEnsemble(members = 3)
    void aTestGetsAThreeMemberEnsemble(WardenTestingCluster cluster) throws Exception {
        assertEquals(3, cluster.memberIds().size());
        assertEquals(1, cluster.roles().values().stream().filter("leader"::equals).count());
        lastDirectory = cluster.dataDirectory(1).getParent();
        ZooKeeper zk = Zk.connect(cluster.connectString());
        zk.close();
    }

    @Test
    void theEnsembleOfTheTestBeforeIsGone() {
        if (lastDirectory != null) {
            assertFalse(lastDirectory.getFileSystem().isOpen(), "the data of the test before should be freed");
        }
    }

    /** Run through the test kit, so the failure of a test without the annotation can be checked. */
    @org.junit.jupiter.api.extension.ExtendWith(WardenExtension.class)
    static class AskingWithoutAnnotation {
        @Test
        void wantsAServer(WardenTestingServer server) {
            assertTrue(server.isRunning());
        }
    }

    @Test
    void aParameterWithoutItsAnnotationFailsWithAClearMessage() {
        var results = EngineTestKit.engine("junit-jupiter")
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(AskingWithoutAnnotation.class))
                .execute().testEvents();
        assertEquals(1, results.failed().count());
        Throwable failure = results.failed().stream().findFirst().orElseThrow()
                .getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
        assertTrue(failure.getMessage().contains("@WithWardenServer"), failure.getMessage());
    }
}
