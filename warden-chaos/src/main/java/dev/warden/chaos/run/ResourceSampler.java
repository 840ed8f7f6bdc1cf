package dev.warden.chaos.run;

import dev.warden.chaos.history.History;
import dev.warden.cli.cluster.MemberProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Samples every running member's heap after GC (its gc.log), threads, open file descriptors and
 * resident memory (/proc), and data directory size, for the soak's leak watch.
 */
public final class ResourceSampler {
    /** A unified-logging GC line's "before->after(capacity)" figures. */
    private static final Pattern HEAP = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");

    private final ChaosEnsemble ensemble;
    private final History history;
    private final List<ResourceSample> samples = Collections.synchronizedList(new ArrayList<>());

    public ResourceSampler(ChaosEnsemble ensemble, History history) {
        this.ensemble = ensemble;
        this.history = history;
    }

    public List<ResourceSample> samples() {
        return List.copyOf(samples);
    }

    public void sampleAll() {
        for (int id : ensemble.ids()) {
            MemberProcess member = ensemble.member(id);
            if (!member.isServingCandidate()) {
                continue;
            }
            try {
                long pid = member.pid();
                Path proc = Path.of("/proc", Long.toString(pid));
                int threads = (int) statusField(proc, "Threads:");
                long rssMb = statusField(proc, "VmRSS:") / 1024;
                int fds;
                try (Stream<Path> list = Files.list(proc.resolve("fd"))) {
                    fds = (int) list.count();
                }
                samples.add(new ResourceSample(history.nowNs(), id, heapAfterLastGc(member.dir().resolve("gc.log")),
                        threads, fds, rssMb, sizeMb(member.dataDir())));
            } catch (IOException | RuntimeException e) {
                // the member died between the check and the read: no sample this time
            }
        }
    }

    private static long statusField(Path proc, String field) throws IOException {
        for (String line : Files.readAllLines(proc.resolve("status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }

    static long heapAfterLastGc(Path gcLog) throws IOException {
        if (!Files.exists(gcLog)) {
            return -1;
        }
        List<String> lines = Files.readAllLines(gcLog);
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = HEAP.matcher(lines.get(i));
            if (m.find()) {
                return Long.parseLong(m.group(2));
            }
        }
        return -1;
    }

    private static long sizeMb(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            long bytes = walk.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException gone) {
                    return 0;
                }
            }).sum();
            return bytes >> 20;
        }
    }
}
