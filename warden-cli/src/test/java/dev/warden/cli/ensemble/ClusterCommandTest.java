package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.StopSignal;
import dev.warden.cli.cluster.ClusterCommand;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

class ClusterCommandTest {
    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs the command; {@code whileServing} runs once it announced itself, then the command stops. */
    private int run(Runnable whileServing, String... args) {
        StopSignal stopAfterCheck = new StopSignal() {
            private Runnable stop = () -> { };

            @Override
            public void onStop(Runnable stopAction) {
                stop = stopAction;
            }

            @Override
            public void await() {
                whileServing.run();
                stop.run();
            }
        };
        CommandLine cli = new CommandLine(new ClusterCommand(stopAfterCheck));
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Flavour.class)
    void startsAnEnsembleThatServesUntilStopped(Flavour flavour) throws IOException {
        String name = flavour.name().toLowerCase(Locale.ROOT);
        Pattern serving = Pattern.compile(name + " ensemble of 3 serving on (\\S+), leader (\\d), files in ");
        int exit = run(() -> {
            Matcher matcher = serving.matcher(out.toString());
            assertTrue(matcher.find(), out.toString());
            try (ZooKeeper zk = Ensembles.connect(matcher.group(1), 5000)) {
                assertTrue(zk.exists("/", false) != null);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, "--dir", tmp.toString(), "--flavour", name, "--tick-time-ms", "500",
                "--set", "globalOutstandingLimit=999",
                "--classpath", ManagementFactory.getRuntimeMXBean().getClassPath());
        assertEquals(0, exit, err.toString());
        assertTrue(out.toString().contains("ensemble stopped; files kept in"), out.toString());
        assertTrue(Files.readString(tmp.resolve("member-3/zoo.cfg")).contains("globalOutstandingLimit=999\n"));
    }

    @Test
    void badInputIsRejectedWithTheReason() {
        assertEquals(2, run(() -> { }, "--dir", tmp.toString(), "--members", "0"));
        assertTrue(err.toString().contains("at least one participant"), err.toString());
        assertEquals(2, run(() -> { }, "--dir", tmp.toString(), "--flavour", "etcd"));
        assertTrue(err.toString().contains("unknown server flavour 'etcd'"), err.toString());
        assertEquals(2, run(() -> { }, "--dir", tmp.toString(), "--set", "forceSync"));
        assertTrue(err.toString().contains("a zoo.cfg line is key=value, was 'forceSync'"), err.toString());
    }

    @Test
    void aBadHeapIsRefusedBeforeAnyMemberStarts() {
        assertEquals(2, run(() -> { }, "--dir", tmp.toString(), "--heap", "lots"));
        assertTrue(err.toString().contains("--heap lots is invalid: give a size such as 256m or 2g"), err.toString());
    }

    @Test
    void aMemberThatDiesAtStartIsReportedWithItsStatusAndLastError() {
        assertEquals(1, run(() -> { }, "--dir", tmp.toString(), "--members", "1", "--set", "tickTime=soon",
                "--start-timeout-s", "30"));
        assertTrue(err.toString().contains("(DIED, exit status 2: tickTime='soon' is invalid"), err.toString());
    }
}
