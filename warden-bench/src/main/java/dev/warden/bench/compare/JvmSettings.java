package dev.warden.bench.compare;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How server JVMs are started: the same java, class path and heap for both flavours.
 *
 * @param javaExecutable     the java launcher
 * @param classPath          a class path holding both servers (the benchmark's own)
 * @param heapMb             -Xms and -Xmx of every member
 * @param juteMaxBufferBytes frame limit of every member, above 1 MiB so the large-value workload fits
 */
public record JvmSettings(Path javaExecutable, String classPath, int heapMb, int juteMaxBufferBytes) {
    public JvmSettings {
        Objects.requireNonNull(javaExecutable, "javaExecutable");
        Objects.requireNonNull(classPath, "classPath");
        if (heapMb < 64) {
            throw new IllegalArgumentException("heap=" + heapMb + " MiB must be at least 64");
        }
        if (juteMaxBufferBytes < 1 << 20) {
            throw new IllegalArgumentException("jute.maxbuffer=" + juteMaxBufferBytes + " must be at least 1 MiB");
        }
    }

    /**
     * The java running this process and its class path. This is configuration loading: the only
     * place the benchmark reads system properties.
     */
    public static JvmSettings ofThisJvm(int heapMb) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new JvmSettings(java, System.getProperty("java.class.path"), heapMb, 4 << 20);
    }
}
