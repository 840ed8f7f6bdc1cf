package dev.warden.bench.scale;

import dev.warden.bench.compare.JvmSettings;
import dev.warden.cli.cluster.Flavour;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code bench scale} run.
 *
 * @param points        the values each dimension is measured at, in order
 * @param watchRounds   setData rounds per watcher count; the figure is over the rounds
 * @param jitWarmupSeconds unmeasured load each server gets once after it starts (0: none, else at least 2)
 * @param memberHeapMb  -Xms/-Xmx of each member in the members dimension (seven of them share the machine)
 */
public record ScaleOptions(List<ScaleDimension> dimensions, Map<ScaleDimension, List<Long>> points,
                           List<Flavour> flavours, int warmupSeconds, int measureSeconds, int watchRounds,
                           int jitWarmupSeconds, JvmSettings jvm, int memberHeapMb, Path workDir,
                           long readyTimeoutMs) {
    public ScaleOptions {
        dimensions = List.copyOf(dimensions);
        points = Map.copyOf(points);
        flavours = List.copyOf(flavours);
        Objects.requireNonNull(jvm, "jvm");
        Objects.requireNonNull(workDir, "workDir");
        if (dimensions.isEmpty() || flavours.isEmpty()) {
            throw new IllegalArgumentException("need at least one dimension and one server");
        }
        for (ScaleDimension dimension : dimensions) {
            List<Long> xs = points.get(dimension);
            if (xs == null || xs.isEmpty()) {
                throw new IllegalArgumentException("no points for dimension " + dimension.cliName());
            }
            for (long x : xs) {
                String refusal = dimension.refusal(x, jvm.juteMaxBufferBytes());
                if (refusal != null) {
                    throw new IllegalArgumentException(refusal);
                }
            }
            if (dimension == ScaleDimension.ZNODES && !xs.equals(xs.stream().sorted().distinct().toList())) {
                // the tree grows from one point to the next on the same server; it is never pruned
                throw new IllegalArgumentException("znodes points must grow: " + xs);
            }
        }
        if (warmupSeconds < 0 || measureSeconds < 1 || watchRounds < 1) {
            throw new IllegalArgumentException("warm-up must be >= 0 s, the measured time >= 1 s and rounds >= 1");
        }
        if (jitWarmupSeconds != 0 && jitWarmupSeconds < 2) {
            throw new IllegalArgumentException("JIT warm-up must be 0 or at least 2 s, not " + jitWarmupSeconds);
        }
        if (memberHeapMb < 64) {
            throw new IllegalArgumentException("--member-heap-mb=" + memberHeapMb + " must be at least 64");
        }
        if (readyTimeoutMs <= 0) {
            throw new IllegalArgumentException("ready timeout must be > 0 ms");
        }
    }
}
