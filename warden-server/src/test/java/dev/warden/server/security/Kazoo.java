package dev.warden.server.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a Python script with kazoo, Debian's python3-kazoo (an independent ZooKeeper client).
 * .ci/run installs it when missing; elsewhere a test that needs it is skipped with a message
 * saying how to install it.
 */
final class Kazoo {
    static final String PYTHON = "/usr/bin/python3";

    private Kazoo() {
    }

    static void assumeInstalled() throws Exception {
        boolean present = Files.isExecutable(Path.of(PYTHON)) && run(List.of(PYTHON, "-c", "import kazoo"), 30).exitCode == 0;
        Assumptions.assumeTrue(present, "kazoo is not installed: apt-get install python3-kazoo (as root) to run"
                + " this test against Warden with an independent client");
    }

    record Result(int exitCode, String output) {
    }

    /** Runs {@code script}, whose arguments follow, and returns its exit code and combined output. */
    static Result script(Path dir, String script, String... args) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "kazoo", ".py"), script);
        List<String> command = new java.util.ArrayList<>(List.of(PYTHON, file.toString()));
        command.addAll(List.of(args));
        return run(command, 60);
    }

    private static Result run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Result(-1, "timed out");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
    }
}
