package dev.warden.bench.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap a server JVM holds after full collections, asked of the JVM itself through jcmd (the
 * servers run in JVMs of their own, so the benchmark cannot weigh them from inside).
 */
final class ServerHeap {
    /** Two collections: the first may leave objects whose finalizers or references the second clears. */
    private static final int FULL_GCS = 2;
    private static final long JCMD_TIMEOUT_MS = 120_000;
    /** GC.heap_info's first line, e.g. " garbage-first heap   total 2097152K, used 123456K [0x...". */
    private static final Pattern USED_KIB = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");

    private ServerHeap() {
    }

    /** Bytes of heap in use in JVM {@code pid} after full collections; {@code jcmd} is the JDK's jcmd. */
    static long afterFullGcBytes(Path jcmd, long pid) throws IOException, InterruptedException {
        for (int i = 0; i < FULL_GCS; i++) {
            run(jcmd, pid, "GC.run"); // System.gc(): a full, stop-the-world collection under G1
        }
        return usedBytes(run(jcmd, pid, "GC.heap_info"));
    }

    /** The used heap in a GC.heap_info answer, in bytes. */
    static long usedBytes(String heapInfo) throws IOException {
        Matcher used = USED_KIB.matcher(heapInfo);
        if (!used.find()) {
            throw new IOException("no 'heap total ..K, used ..K' line in jcmd GC.heap_info: " + heapInfo.strip());
        }
        return Long.parseLong(used.group(1)) * 1024;
    }

    private static String run(Path jcmd, long pid, String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
                .redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(JCMD_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException("jcmd " + pid + " " + command + " still running after " + JCMD_TIMEOUT_MS + " ms");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("jcmd " + pid + " " + command + " failed (" + process.exitValue() + "): "
                    + text.strip());
        }
        return text;
    }
}
