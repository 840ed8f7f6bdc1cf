package dev.warden.examples.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HBaseScenarioTest {
    @TempDir
    Path dataDir;

    @Test
    void regionsAndMetaMoveOffCrashedServersAndTheStandbyMasterTakesOver() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).clientPortAddress("127.0.0.1")
                .forceSync(false).build();
        List<String> story = Collections.synchronizedList(new ArrayList<>());
        HBaseScenario.Outcome outcome;
        try (WardenServer server = WardenServer.start(config)) {
            outcome = new HBaseScenario(server.connectString(), "/hbase", 6, story::add).run();
        }

        assertEquals(7, outcome.finalAssignments().size(), "meta and six regions");
        assertEquals(2, outcome.crashedServers().size());
        assertTrue(outcome.crashedServers().contains(outcome.firstMetaServer()), "the META holder was killed first");
        Set<String> survivors = Set.copyOf(outcome.finalAssignments().values());
        assertEquals(1, survivors.size(), "everything ends on the last live server");
        assertFalse(outcome.crashedServers().containsAll(survivors));
        assertTrue(outcome.assignmentsAfterFirstCrash().values().stream().noneMatch(outcome.firstMetaServer()::equals));

        List<String> metaSeen = outcome.metaLocationsSeen();
        assertEquals(outcome.firstMetaServer(), metaSeen.get(0));
        assertNotEquals(outcome.firstMetaServer(), metaSeen.get(metaSeen.size() - 1), "the client saw META move");
        assertEquals(outcome.finalAssignments().get("meta"), metaSeen.get(metaSeen.size() - 1));
        assertEquals("master-b", outcome.finalActiveMaster(), "master-a started first and was killed");
        assertTrue(story.contains("[master-b] is the active master"), String.join("\n", story));
    }
}
