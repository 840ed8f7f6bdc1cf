package dev.warden.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import dev.warden.cli.cluster.Flavour;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The scale command's options, parsed without running anything. */
class ScaleCommandTest {
    private static ScaleOptions parse(String... args) {
        ScaleCommand command = new ScaleCommand();
        new CommandLine(command).parseArgs(args);
        return command.options(Path.of("work"));
    }

    @Test
    void defaultsAreTheThreeDimensionsOnBothServers() {
        ScaleOptions options = parse();
        assertEquals(List.of(ScaleDimension.CONNECTIONS, ScaleDimension.WATCHERS, ScaleDimension.VALUE_SIZE),
                options.dimensions());
        assertEquals(List.of(16L, 256L, 1024L, 4096L, 10_000L), options.points().get(ScaleDimension.CONNECTIONS));
        assertEquals(List.of(Flavour.APACHE, Flavour.WARDEN), options.flavours());
    }

    @Test
    void pointsForOneDimension() {
        ScaleOptions options = parse("--dimension", "value-size", "--points", "16,1048576", "--servers", "warden");
        assertEquals(List.of(16L, 1_048_576L), options.points().get(ScaleDimension.VALUE_SIZE));
        assertEquals(List.of(Flavour.WARDEN), options.flavours());
    }

    @Test
    void refusalsNameTheOption() {
        IllegalArgumentException twoWithPoints = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "connections,watchers", "--points", "16"));
        assertTrue(twoWithPoints.getMessage().contains("--points needs exactly one --dimension"),
                twoWithPoints.getMessage());
        IllegalArgumentException notBuilt = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "znodes"));
        assertTrue(notBuilt.getMessage().contains("not measured by bench scale yet"), notBuilt.getMessage());
        IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "connections", "--points", "8"));
        assertTrue(tooFew.getMessage().contains("connections point 8 is below 16"), tooFew.getMessage());
        IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
                () -> parse("--servers", "etcd"));
        assertTrue(server.getMessage().contains("unknown server 'etcd'"), server.getMessage());
    }

    @Test
    void usageErrorExitsWithTwoBeforeStartingAnything() {
        StringWriter err = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("scale", "--dimension", "members", "--doc", "no-such-file.md");
        assertEquals(2, status);
        assertTrue(err.toString().contains("dimension 'members' is not measured"), err.toString());
    }
}
