package dev.warden.testing.curator;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystems;
import org.junit.jupiter.api.Test;

/** What the Curator-shaped server does beyond Curator's: without a directory it keeps no files. */
class TestingServerInMemoryTest {

    @Test
    void withoutADirectoryTheDataIsInMemoryAndThereIsNoTempDirectoryToGive() throws Exception {
        try (TestingServer server = new TestingServer()) {
            assertNotEquals(FileSystems.getDefault(), server.warden().dataDirectory().getFileSystem());
            UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                    server::getTempDirectory);
            assertTrue(refused.getMessage().contains("TestingServer(port, tempDirectory)"), refused.getMessage());
        }
    }
}
