package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a process's CPU time from its /proc stat line. */
class ProcessCpuTest {
    @Test
    void userAndSystemTicksAreCountedFromTheLastParenthesis() {
        // a command name with a space and a ")" of its own: fields are counted after the last one
        String line = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 99 0 0 0 1234 567 0 0 20 0 42 0 100 0 0";
        assertEquals(1234 + 567, ProcessCpu.ticksOf(line));
        assertThrows(IllegalArgumentException.class, () -> ProcessCpu.ticksOf("4242 java S 1"));
    }

    @Test
    void aFileThatCannotBeReadGivesMinusOne(@TempDir Path dir) throws Exception {
        assertEquals(-1, ProcessCpu.ticks(dir.resolve("absent")));
        Path garbled = Files.writeString(dir.resolve("stat"), "(short) S");
        assertEquals(-1, ProcessCpu.ticks(garbled));
    }

    @Test
    void thisProcessHasUsedSomeCpuAndAGoneOneIsUnknown() {
        long pid = ProcessHandle.current().pid();
        if (Files.isReadable(Path.of("/proc/self/stat"))) {
            assertTrue(new ProcessCpu(List.of(pid)).cpuNs() > 0);
        }
        assertEquals(-1, new ProcessCpu(List.of(pid, Long.MAX_VALUE)).cpuNs());
    }
}
