package dev.warden.bench.jmh;

import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Group commit: {@code batchSize} appends followed by one flush (one write and, with fsync on,
 * one fdatasync). The primary score is flushes per second; the {@code records} counter gives
 * records per second, which is what batching buys. Runs on a real disk directory
 * ({@code parentDir}, default the working directory) because /tmp may be a RAM disk where fsync
 * costs nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TxnLogBenchmark {
    @Param({"1", "16", "256"})
    public int batchSize;

    @Param("128")
    public int payloadBytes;

    @Param("true")
    public boolean forceSync;

    @Param(".")
    public String parentDir;

    private Path dir;
    private TxnLog log;
    private byte[] payload;
    private long nextZxid;

    /** Counted per iteration and reported by JMH beside the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long records;

        @Setup(Level.Iteration)
        public void clear() {
            records = 0;
        }
    }

    @Setup(Level.Trial)
    public void openLog() throws IOException {
        if (batchSize < 1 || payloadBytes < 0) {
            throw new IllegalArgumentException("batchSize must be >= 1 and payloadBytes >= 0");
        }
        dir = Files.createTempDirectory(Path.of(parentDir).toAbsolutePath(), "warden-txnlog-bench-");
        log = TxnLog.open(dir, TxnLogOptions.defaults().withForceSync(forceSync));
        payload = new byte[payloadBytes];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
    }

    @TearDown(Level.Trial)
    public void deleteLog() throws IOException {
        log.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public long appendBatchThenFlush(Counters counters) throws IOException {
        for (int i = 0; i < batchSize; i++) {
            log.append(++nextZxid, payload);
        }
        log.flush();
        counters.records += batchSize;
        return log.lastDurableZxid();
    }
}
