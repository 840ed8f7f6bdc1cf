package dev.warden.chaos.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoversTest {
    @TempDir
    Path tmp;

    /** A stand-in for a member JVM: a process whose command line names a zoo.cfg under {@code dir}. */
    private static Process memberLike(Path dir) throws Exception {
        return new ProcessBuilder("sh", "-c", "sleep 60", "member", dir.resolve("run/member-1/zoo.cfg").toString())
                .start();
    }

    @Test
    void onlyProcessesNamingAConfigInsideTheOutputDirectoryAreKilled() throws Exception {
        Path ours = tmp.resolve("chaos-runs");
        Path someoneElses = tmp.resolve("chaos-runs-other");
        Process leftover = memberLike(ours);
        Process other = memberLike(someoneElses);
        try {
            List<Long> killed = Leftovers.killUnder(ours);
            assertEquals(List.of(leftover.pid()), killed);
            assertTrue(leftover.waitFor(10, TimeUnit.SECONDS));
            assertFalse(leftover.isAlive());
            assertTrue(other.isAlive(), "a directory that merely starts with the same name is not ours");
        } finally {
            leftover.destroyForcibly();
            other.destroyForcibly();
        }
    }
}
