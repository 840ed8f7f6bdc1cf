package dev.warden.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.BenchMain;
import dev.warden.cli.cluster.Flavour;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    void theTreeAndEnsembleDimensionsWithTheirDefaultPoints() {
        ScaleOptions options = parse("--dimensions", "children,znodes,members");
        assertEquals(List.of(ScaleDimension.CHILDREN, ScaleDimension.ZNODES, ScaleDimension.MEMBERS),
                options.dimensions());
        assertEquals(List.of(1000L, 10_000L, 100_000L), options.points().get(ScaleDimension.CHILDREN));
        assertEquals(List.of(10_000L, 100_000L, 1_000_000L), options.points().get(ScaleDimension.ZNODES));
        assertEquals(List.of(3L, 5L, 7L), options.points().get(ScaleDimension.MEMBERS));
        assertEquals(512, options.memberHeapMb());
        assertEquals(List.of(10_000_000L), parse("--dimension", "znodes", "--points", "10000000").points()
                .get(ScaleDimension.ZNODES), "ten million is an opt-in point");
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
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "sessions"));
        assertTrue(unknown.getMessage().contains("unknown dimension 'sessions'"), unknown.getMessage());
        IllegalArgumentException evenEnsemble = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "members", "--points", "3,4"));
        assertTrue(evenEnsemble.getMessage().contains("members point 4: the ensembles are 3, 5 or 7 members"),
                evenEnsemble.getMessage());
        IllegalArgumentException tooManyChildren = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "children", "--points", "1000000"));
        assertTrue(tooManyChildren.getMessage().contains("is above jute.maxbuffer (4194304 bytes); at most 322633"
                + " children"), tooManyChildren.getMessage());
        IllegalArgumentException shrinkingTree = assertThrows(IllegalArgumentException.class,
                () -> parse("--dimension", "znodes", "--points", "100000,10000"));
        assertTrue(shrinkingTree.getMessage().contains("znodes points must grow"), shrinkingTree.getMessage());
        IllegalArgumentException memberHeap = assertThrows(IllegalArgumentException.class,
                () -> parse("--member-heap-mb", "32"));
        assertTrue(memberHeap.getMessage().contains("--member-heap-mb=32 must be at least 64"), memberHeap.getMessage());
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
        int status = cli.execute("scale", "--dimension", "members", "--points", "2", "--doc", "no-such-file.md");
        assertEquals(2, status);
        assertTrue(err.toString().contains("members point 2: the ensembles are 3, 5 or 7 members"), err.toString());
    }

    @Test
    void aDocumentWithoutTheDimensionsSectionIsRefusedBeforeStartingAnything(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("PERFORMANCE.md");
        Files.writeString(doc, "<!-- bench:scale:connections:begin -->\n<!-- bench:scale:connections:end -->\n");
        StringWriter err = new StringWriter();
        CommandLine cli = BenchMain.commandLine();
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("scale", "--dimension", "connections,children", "--doc", doc.toString());
        assertEquals(2, status);
        assertTrue(err.toString().contains("lacks the markers <!-- bench:scale:children:begin -->"), err.toString());
    }
}
