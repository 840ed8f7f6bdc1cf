package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every thread of a server is made by {@code threads.ServerThreads} (named, daemon, its death
 * logged), so none is started by a class of its own: this reads the main sources of warden-server
 * and warden-state and fails on a line outside ServerThreads that makes a thread, an executor or
 * an event loop group without ServerThreads' factory.
 */
class ThreadsMadeInOnePlaceTest {
    private static final Pattern MAKES_A_THREAD = Pattern.compile(
            "new Thread\\(|Thread\\.ofPlatform|Thread\\.ofVirtual|Executors\\.new\\w+\\(|new \\w*EventLoopGroup\\(");
    private static final List<Path> SOURCES = List.of(Path.of("src/main/java"), Path.of("../warden-state/src/main/java"));

    @Test
    void onlyServerThreadsMakesThreads() throws IOException {
        List<String> offenders = new ArrayList<>();
        int filesRead = 0;
        for (Path root : SOURCES) {
            assertTrue(Files.isDirectory(root), root.toAbsolutePath() + " should hold main sources");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    filesRead++;
                    if (file.getFileName().toString().equals("ServerThreads.java")) {
                        continue;
                    }
                    List<String> lines = Files.readAllLines(file);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i);
                        if (MAKES_A_THREAD.matcher(line).find() && !line.contains("ServerThreads.")) {
                            offenders.add(root.relativize(file) + ":" + (i + 1) + ": " + line.trim());
                        }
                    }
                }
            }
        }
        assertTrue(filesRead > 100, "read " + filesRead + " source files");
        assertEquals(List.of(), offenders, "threads made outside ServerThreads");
    }
}
