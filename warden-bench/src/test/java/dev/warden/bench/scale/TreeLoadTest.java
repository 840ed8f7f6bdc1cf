package dev.warden.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.load.ClientKind;
import dev.warden.bench.load.LoadClient;
import dev.warden.bench.support.InProcessServers;
import java.io.IOException;
import java.util.Locale;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The building blocks of the children and znodes dimensions against both in-process servers: many
 * creates in flight through one session, a closed getChildren loop over them, and a failing
 * request that fails the load instead of counting as a fast one.
 */
class TreeLoadTest {
    private static final int FRAME_BYTES = 4 << 20;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.bench.support.InProcessServers#both")
    void createsChildrenAndReadsThemBackInALoop(String name, Supplier<InProcessServers.Server> servers)
            throws Exception {
        try (InProcessServers.Server server = servers.get()) {
            LoadClient creator = ClientKind.APACHE.connect(server.connectString(), 30_000, FRAME_BYTES);
            try {
                TreeBuilder.create(creator, 0, 1, i -> "/parent", new byte[0]);
                long elapsedNs = TreeBuilder.create(creator, 0, 3000,
                        i -> String.format(Locale.ROOT, "/parent/c%08d", i), new byte[0]);
                assertTrue(elapsedNs > 0);
                IOException exists = assertThrows(IOException.class,
                        () -> TreeBuilder.create(creator, 5, 6, i -> String.format(Locale.ROOT, "/parent/c%08d", i),
                                new byte[0]));
                assertTrue(exists.getMessage().contains("create /parent/c00000005: NODE_EXISTS"), exists.getMessage());
            } finally {
                creator.close();
            }
            int[] seen = new int[1];
            ClosedLoopLoad.Result result = ClosedLoopLoad.runOnNewSessions(server.connectString(), 2, 2, FRAME_BYTES,
                    (client, done) -> client.getChildren("/parent", (rc, names) -> {
                        seen[0] = names == null ? -1 : names.size();
                        done.done(rc);
                    }), 0, 1);
            assertEquals(3000, seen[0]);
            assertTrue(result.opsPerSecond() > 0 && result.p99Us() >= result.p50Us(), result.toString());
            IOException missing = assertThrows(IOException.class, () -> ClosedLoopLoad.runOnNewSessions(
                    server.connectString(), 1, 1, FRAME_BYTES, (client, done) -> client.getData("/absent", done), 0,
                    1));
            assertTrue(missing.getMessage().contains("failed, the first with NO_NODE"), missing.getMessage());
        }
    }
}
