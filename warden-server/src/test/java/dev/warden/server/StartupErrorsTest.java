package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up failures name the port, the keys that set it and the cause. */
class StartupErrorsTest {
    @TempDir
    Path dir;

    @Test
    void aClientPortInUseNamesTheKeysAndTheCause() throws Exception {
        try (WardenServer first = WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("a")).clientPort(0)
                .build())) {
            int port = first.clientPort();
            IOException e = assertThrows(IOException.class, () -> WardenServer.start(ServerConfig.builder()
                    .dataDir(dir.resolve("b")).clientPort(port).build()));
            assertTrue(e.getMessage().startsWith("cannot listen for clients on 127.0.0.1:" + port
                    + " (clientPortAddress, clientPort): "), e.getMessage());
            assertTrue(e.getMessage().contains("another process (or another server) holds that port"), e.getMessage());
        }
    }
}
