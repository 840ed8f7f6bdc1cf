package dev.warden.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One data directory, one owner: a second server or a tool is refused until the first lets go. */
class DataDirLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondOwnerIsRefusedWithTheFirstOnesPid() throws Exception {
        try (DataDirLock first = DataDirLock.acquire(dir, "the first tool")) {
            assertTrue(DataDirLock.isHeld(dir));
            DataDirLock.InUseException refused = assertThrows(DataDirLock.InUseException.class,
                    () -> DataDirLock.acquire(dir, "the second tool"));
            assertTrue(refused.getMessage().contains("in use by pid " + ProcessHandle.current().pid()
                    + ", the first tool"), refused.getMessage());
            assertTrue(refused.getMessage().contains("so the second tool cannot use it"), refused.getMessage());
        }
        assertFalse(DataDirLock.isHeld(dir));
        DataDirLock.acquire(dir, "a later tool").close();
    }

    @Test
    void aRunningServerHoldsItsDataDirectory() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dir).clientPort(0).build();
        try (WardenServer server = WardenServer.start(config)) {
            assertTrue(DataDirLock.isHeld(dir));
            ConfigException refused = assertThrows(ConfigException.class, () -> WardenServer.start(config));
            assertEquals("dataDir", refused.key());
            assertTrue(refused.getMessage().contains("a Warden server"), refused.getMessage());
        }
        assertFalse(DataDirLock.isHeld(dir));
        WardenServer.start(config).close();
    }
}
