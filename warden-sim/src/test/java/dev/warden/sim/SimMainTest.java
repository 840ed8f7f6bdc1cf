package dev.warden.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The {@code warden sim} command line: arguments, the summary line, the exit code (a driver that acks before its fsync must make seeds fail). */
class SimMainTest {

    @Test
    void passingSeedsPrintOneSummaryLineAndExitZero() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SimMain.Arguments arguments = SimMain.Arguments.parse(
                new String[]{"--seeds", "3", "--seed", "10", "--members", "5", "--steps", "1500"});
        int exitCode = SimMain.run(arguments, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exitCode, output);
        assertTrue(output.startsWith("sim: 3 seeds from 10, 5 members + 0 observers, 1500 steps: 3 passed, 0 failed;"),
                output);
    }

    @Test
    void badArgumentsAreRefusedWithAReason() {
        assertThrows(IllegalArgumentException.class, () -> SimMain.Arguments.parse(new String[]{"--members", "4"}));
        assertThrows(IllegalArgumentException.class, () -> SimMain.Arguments.parse(new String[]{"--seeds", "0"}));
        assertThrows(IllegalArgumentException.class, () -> SimMain.Arguments.parse(new String[]{"--seed"}));
        assertThrows(IllegalArgumentException.class, () -> SimMain.Arguments.parse(new String[]{"--speed", "1"}));
        assertTrue(SimMain.Arguments.parse(new String[]{"--trusting-recovery"}).options().trustingRecovery());
    }

    @Test
    void aFailureNamesTheCommandThatReplaysIt() {
        RandomRun.Options options = new RandomRun.Options(3, 0, 4000, false);
        RandomRun.Failure failure = new RandomRun.Failure(99, options, new Checkers.Violation("two leaders"));
        assertTrue(failure.getMessage().contains(
                "replay: ./warden sim --seed 99 --members 3 --observers 0 --steps 4000 --verbose"), failure.getMessage());
    }

    @Test
    void theTrustingRecoveryRuleFailsSomeSeedsAndTheReplayCommandKeepsIt() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SimMain.Arguments arguments = SimMain.Arguments.parse(
                new String[]{"--seeds", "10", "--seed", "1", "--trusting-recovery"});
        int exitCode = SimMain.run(arguments, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, exitCode, output);
        assertTrue(output.contains(" --trusting-recovery --verbose"), output);
    }

    @Test
    void aBrokenDriverFailsSomeSeedsAndTheCommandExitsOneWithReplayCommands() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SimMain.Arguments arguments = SimMain.Arguments.parse(
                new String[]{"--seeds", "100", "--seed", "100", "--broken-driver"});
        int exitCode = SimMain.run(arguments, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, exitCode, output);
        assertTrue(output.contains("failed: ") && output.contains("replay: ./warden sim --seed "), output);
        assertTrue(output.lines().anyMatch(line -> line.startsWith("sim: 100 seeds from 100,")
                && !line.contains(" 0 failed")), output);
    }
}
