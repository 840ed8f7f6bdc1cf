package dev.warden.bench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProbeOptionsTest {
    @Test
    void parsesEveryOptionAndDefaultsTheRest() {
        ProbeOptions options = ProbeOptions.parse(new String[] {"--flavour", "apache", "--data-dir", "/d",
                "--znodes", "20_000"});
        assertEquals(Flavour.APACHE, options.flavour());
        assertEquals(Path.of("/d"), options.dataDir());
        assertEquals(20_000, options.znodes());
        assertEquals(ProbeOptions.DEFAULT_IN_FLIGHT, options.maxInFlight());
        assertEquals(false, options.restartPhase());
        assertEquals(0, options.logTail());
        assertEquals(ProbeOptions.DEFAULT_SNAP_COUNT, options.snapCount());
        assertEquals(ProbeOptions.DEFAULT_IDLE_SESSIONS, options.idleSessions());
        assertEquals(250, ProbeOptions.parse(new String[] {"--flavour", "apache", "--data-dir", "/d",
                "--idle-sessions", "250"}).idleSessions());
    }

    @Test
    void restartArgumentsDescribeTheSameDataInTheRestartPhase() {
        ProbeOptions options = ProbeOptions.parse(new String[] {"--flavour", "warden", "--data-dir", "/d",
                "--znodes", "5", "--snap-count", "2000000"});
        ProbeOptions restart = ProbeOptions.parse(options.restartArgs(3).toArray(String[]::new));
        assertEquals(new ProbeOptions(Flavour.WARDEN, 5, Path.of("/d"), ProbeOptions.DEFAULT_IN_FLIGHT, true, 3, 2_000_000,
                ProbeOptions.DEFAULT_IDLE_SESSIONS), restart);
    }

    @Test
    void badInputIsNamedInTheError() {
        assertMessage("unknown server flavour 'etcd'", "--flavour", "etcd", "--data-dir", "/d");
        assertMessage("--flavour and --data-dir are required", "--flavour", "warden");
        assertMessage("--znodes must be a whole number: 'many'", "--flavour", "warden", "--data-dir", "/d",
                "--znodes", "many");
        assertMessage("--znodes must be >= 1: 0", "--flavour", "warden", "--data-dir", "/d", "--znodes", "0");
        assertMessage("--data-dir needs a value", "--flavour", "warden", "--data-dir");
        assertMessage("--log-tail must be within 0..5: 6", "--flavour", "warden", "--data-dir", "/d", "--znodes", "5",
                "--log-tail", "6");
        assertMessage("--snap-count must be >= 2: 1", "--flavour", "warden", "--data-dir", "/d", "--snap-count", "1");
        assertMessage("--idle-sessions must be >= 1: 0", "--flavour", "warden", "--data-dir", "/d", "--idle-sessions",
                "0");
        assertMessage("unknown option '--fast'", "--fast");
    }

    private static void assertMessage(String expectedStart, String... args) {
        var e = assertThrows(IllegalArgumentException.class, () -> ProbeOptions.parse(args));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
