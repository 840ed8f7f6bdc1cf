package dev.warden.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.state.pipeline.SnapshotRestore;
import org.junit.jupiter.api.Test;

class RestoreBodyLimitTest {
    private static final long MIB = 1L << 20;

    /** A restore's file may take one log record, and no more than an eighth of a small heap. */
    @Test
    void theLimitIsOneLogRecordOrAnEighthOfTheHeapWhicheverIsLess() {
        assertEquals(32 * MIB, RestoreAdminCommand.maxBodyBytes(256 * MIB), "a 256 MiB heap: 32 MiB");
        assertEquals(SnapshotRestore.maxSnapshotBytes(), RestoreAdminCommand.maxBodyBytes(4096 * MIB),
                "a 4 GiB heap: one log record");
    }
}
