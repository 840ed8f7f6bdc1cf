package dev.warden.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code warden bench micro}: the arguments reach JMH, which finds and runs this module's benchmarks. */
class MicroCommandTest {
    private final PrintStream systemOut = System.out;
    /** JMH reports on System.out, not through picocli's writers. */
    private final ByteArrayOutputStream jmhOut = new ByteArrayOutputStream();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void captureJmhOutput() {
        System.setOut(new PrintStream(jmhOut, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreSystemOut() {
        System.setOut(systemOut);
    }

    private int run(String... args) {
        CommandLine cli = BenchMain.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    private String jmhOutput() {
        return jmhOut.toString(StandardCharsets.UTF_8);
    }

    @Test
    void listsEveryBenchmarkFamily() {
        assertEquals(0, run("micro", "-l"));
        for (String family : new String[] {"CodecBenchmark", "DataTreeBenchmark", "WatchManagerBenchmark",
                "TxnLogBenchmark"}) {
            assertTrue(jmhOutput().contains("dev.warden.bench.jmh." + family + "."), this::jmhOutput);
        }
    }

    @Test
    void runsTheSelectedBenchmarkAndReportsAScore() {
        int status = run("micro", "-f", "0", "-wi", "0", "-i", "1", "-r", "100ms", "-foe", "true",
                "CodecBenchmark.encodeStat");
        assertEquals(0, status, () -> jmhOutput() + err);
        assertTrue(jmhOutput().matches("(?s).*CodecBenchmark\\.encodeStat +avgt +[0-9.]+ +ns/op.*"), this::jmhOutput);
    }

    @Test
    void anOptionJmhDoesNotKnowIsAUsageError() {
        assertEquals(2, run("micro", "--no-such-option"));
        assertTrue(err.toString().contains("JMH: no-such-option is not a recognized option"), err::toString);
    }
}
