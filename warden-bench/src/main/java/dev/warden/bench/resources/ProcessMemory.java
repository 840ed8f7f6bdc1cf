package dev.warden.bench.resources;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Heap and resident memory of this JVM. */
final class ProcessMemory {
    private static final int GC_ROUNDS = 4;
    private static final long PAUSE_BETWEEN_GCS_MS = 200;
    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessMemory() {
    }

    /** Heap in use after several full collections, so only live objects remain. */
    static long heapUsedAfterGcBytes() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < GC_ROUNDS; i++) {
            memory.gc();
            Thread.sleep(PAUSE_BETWEEN_GCS_MS);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** VmRSS from /proc/self/status; -1 where there is no /proc (not Linux). */
    static long residentBytes() throws IOException {
        if (!Files.isReadable(STATUS)) {
            return -1;
        }
        return parseVmRssBytes(Files.readString(STATUS));
    }

    static long parseVmRssBytes(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                if (parts.length != 2 || !parts[1].equals("kB")) {
                    throw new IllegalArgumentException("unexpected VmRSS line: " + line);
                }
                return Long.parseLong(parts[0]) * 1024;
            }
        }
        throw new IllegalArgumentException("no VmRSS line in /proc/self/status");
    }
}
