package dev.warden.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitCleanupTest {
    @TempDir
    Path dir;

    @AfterEach
    void startOver() {
        ExitCleanup.resetForTests();
    }

    @Test
    void runsWhatIsStillRegisteredNewestFirstAndGoesOnPastAFailure() {
        List<String> ran = new ArrayList<>();
        ExitCleanup.register("directory", () -> ran.add("directory"));
        ExitCleanup.register("first server", () -> ran.add("first server"));
        ExitCleanup.register("broken", () -> {
            throw new IllegalStateException("cannot");
        });
        ExitCleanup.Registration done = ExitCleanup.register("stopped already", () -> ran.add("stopped already"));
        ExitCleanup.register("second server", () -> ran.add("second server"));
        done.close();

        ExitCleanup.runPending();

        assertEquals(List.of("second server", "first server", "directory"), ran);
    }

    @Test
    void whatIsRegisteredWhileExitingRunsAtOnce() {
        ExitCleanup.runPending();
        List<String> ran = new ArrayList<>();
        ExitCleanup.register("late server", () -> ran.add("late server"));
        assertEquals(List.of("late server"), ran);
    }

    @Test
    void aProcessStillRunningIsStoppedAndOneThatEndedIsForgotten() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process ended = new ProcessBuilder(java, "-version").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        ExitCleanup.Registration forgotten = ExitCleanup.stopOnExit("ended", ended);
        assertTrue(ended.waitFor(30, TimeUnit.SECONDS));
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ExitCleanup.pendingCount() > 0 && System.nanoTime() < deadlineNs) {
            Thread.sleep(10); // the registration withdraws itself from the process's exit callback
        }
        assertEquals(0, ExitCleanup.pendingCount());
        Process running = new ProcessBuilder("sleep", "600").start();
        ExitCleanup.stopOnExit("running", running);
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("log"), "x");
        ExitCleanup.deleteOnExit(work);
        forgotten.close(); // harmless a second time

        ExitCleanup.runPending();

        assertFalse(running.isAlive());
        assertFalse(Files.exists(work));
    }
}
