package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A force hook fails fsyncs like a failing disk and hears each one that completed. */
class FailingFsyncTest {
    @TempDir
    Path dir;

    @Test
    void aFailedFsyncFailsTheFlushAndLeavesTheRecordNotDurable() throws IOException {
        FaultInjectingChannels disk = new FaultInjectingChannels();
        List<Path> completed = new ArrayList<>();
        try (TxnLog log = TxnLog.open(dir, TxnLogOptions.defaults().withChannels(disk))) {
            disk.hookForces(new FaultInjectingChannels.ForceHook() {
                @Override
                public void beforeForce(Path file) {
                }

                @Override
                public void afterForce(Path file) {
                    completed.add(file);
                }
            });
            log.append(1, new byte[100]);
            log.flush();
            assertEquals(1, log.lastDurableZxid());
            assertTrue(!completed.isEmpty(), "the hook heard the completed fsync");

            disk.hookForces(file -> {
                throw new IOException("Input/output error (injected)");
            });
            log.append(2, new byte[100]);
            assertThrows(IOException.class, log::flush);
            assertEquals(1, log.lastDurableZxid(), "a record whose fsync failed is not durable");
        }
    }
}
