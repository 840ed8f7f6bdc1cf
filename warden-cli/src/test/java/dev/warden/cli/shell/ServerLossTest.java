package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prompt follows the connection: SUSPENDED while the server is gone, CONNECTED once it is back. */
class ServerLossTest {
    @TempDir
    Path dataDir;

    @Test
    void thePromptShowsTheLossAndTheReconnect() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).build();
        WardenServer server = WardenServer.start(config);
        int port = server.clientPort();
        ByteArrayOutputStream events = new ByteArrayOutputStream();
        try (ShellSession session = new ShellSession(new PrintStream(events, true), 20_000, ShellClientConfig.PLAINTEXT)) {
            session.connect("127.0.0.1:" + port);
            assertTrue(session.describe().endsWith("(CONNECTED)"), session.describe());
            server.close();
            assertTrue(waitFor(session, "(SUSPENDED)"), session.describe());
            server = WardenServer.start(config.toBuilder().clientPort(port).build());
            assertTrue(waitFor(session, "(CONNECTED)"), session.describe());
            session.client().exists("/");
        } finally {
            server.close();
        }
        assertTrue(events.toString().contains("Disconnected"), events.toString());
    }

    private static boolean waitFor(ShellSession session, String state) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (session.describe().endsWith(state)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }
}
