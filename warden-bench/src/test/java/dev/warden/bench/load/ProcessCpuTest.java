package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A process's CPU time as the JDK reports it; a process that is gone makes the figure unknown. */
class ProcessCpuTest {
    @Test
    void thisProcessHasUsedSomeCpuAndAGoneOneIsUnknown() {
        long pid = ProcessHandle.current().pid();
        if (ProcessHandle.current().info().totalCpuDuration().isPresent()) {
            assertTrue(new ProcessCpu(List.of(pid)).cpuNs() > 0);
        }
        assertEquals(-1, new ProcessCpu(List.of(pid, Long.MAX_VALUE)).cpuNs());
    }
}
