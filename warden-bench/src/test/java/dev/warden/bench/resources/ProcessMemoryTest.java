package dev.warden.bench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessMemoryTest {
    @Test
    void readsVmRssInBytes() {
        String status = "Name:\tjava\nVmPeak:\t 5000 kB\nVmRSS:\t  123456 kB\nThreads:\t30\n";
        assertEquals(123456L * 1024, ProcessMemory.parseVmRssBytes(status));
    }

    @Test
    void statusWithoutVmRssIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ProcessMemory.parseVmRssBytes("Name:\tjava\n"));
    }

    @Test
    void heapAfterGcStaysBelowTheHeapLimit() throws Exception {
        long used = ProcessMemory.heapUsedAfterGcBytes();
        assertTrue(used > 0 && used <= Runtime.getRuntime().maxMemory(), "heap used " + used);
    }
}
