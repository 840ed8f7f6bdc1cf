package dev.warden.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Runs the server command in a child JVM and stops it the way an operator or init system would. */
@DisabledOnOs(OS.WINDOWS) // Process.destroy() is not SIGTERM there
class SignalStopTest {

    /** The child: the real command tree and real shutdown handling, a launcher that binds nothing. */
    public static final class Child {
        public static void main(String[] args) {
            ServerLauncher launcher = config -> new RunningServer() {
                @Override
                public String connectString() {
                    return "127.0.0.1:" + config.clientPort();
                }

                @Override
                public void close() {
                    System.out.println("closed");
                }
            };
            System.exit(Main.commandLine(launcher, StopSignal.jvmShutdown()).execute(args));
        }
    }

    @Test
    void sigtermClosesTheServerAndExitsWithZero() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = ManagementFactory.getRuntimeMXBean().getClassPath();
        Process child = new ProcessBuilder(List.of(java, "-cp", classPath, Child.class.getName(),
                "server", "--port", "0", "--data-dir", "unused"))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("Warden serving on 127.0.0.1:0, data in unused", lines.readLine());
            // SIGTERM through the handle: Process.destroy() would also close our end of the pipes
            assertTrue(child.toHandle().destroy());
            assertEquals(List.of("closed", "Warden stopped"), lines.lines().toList());
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not stop");
            assertEquals(0, child.exitValue());
        } finally {
            child.destroyForcibly();
        }
    }
}
