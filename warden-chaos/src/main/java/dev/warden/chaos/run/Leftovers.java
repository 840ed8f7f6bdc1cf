package dev.warden.chaos.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Member JVMs left running by a chaos run that was itself killed (SIGKILL skips the shutdown hook
 * that stops them). Found by their command line, which names a {@code zoo.cfg} inside this
 * suite's output directory, so nothing else is ever touched. The relays and fault state live in
 * the chaos JVM and die with it; the suite adds no network namespaces or firewall rules.
 */
public final class Leftovers {
    private Leftovers() {
    }

    /** Kills every process whose command line names a member config under {@code outDir}; their pids. */
    public static List<Long> killUnder(Path outDir) {
        String marker = outDir.toAbsolutePath().normalize() + "/";
        List<Long> killed = new ArrayList<>();
        Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc)) {
            return killed;
        }
        try (Stream<Path> entries = Files.list(proc)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                long pid = Long.parseLong(name);
                if (pid == ProcessHandle.current().pid()) {
                    continue;
                }
                String cmdline;
                try {
                    cmdline = new String(Files.readAllBytes(entry.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                } catch (IOException gone) {
                    continue;
                }
                if (cmdline.contains(marker) && cmdline.contains("/member-") && cmdline.contains("zoo.cfg")) {
                    ProcessHandle.of(pid).ifPresent(p -> {
                        p.destroyForcibly();
                        killed.add(pid);
                    });
                }
            }
        } catch (IOException e) {
            // no /proc to read: nothing can be found, nothing is touched
        }
        return killed;
    }
}
