package dev.warden.bench.resources;

import dev.warden.bench.report.DocSplicer;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link ResourceProbe} in a child JVM per flavour, with the same heap limit, and renders
 * the figures side by side for the section between the markers of docs/RESOURCES.md.
 * {@link ResourcesCommand} ({@code warden bench resources}) drives it.
 */
final class ResourceComparison {
    /** The section of docs/RESOURCES.md these figures go to. */
    static final DocSplicer.Markers FIGURES = new DocSplicer.Markers(
            "<!-- figures:begin (written by ResourceComparison) -->", "<!-- figures:end -->");
    private static final long PROBE_TIMEOUT_MS = TimeUnit.HOURS.toMillis(2);

    private ResourceComparison() {
    }

    static ProbeReport runProbe(Flavour flavour, int znodes, String xmx, int snapCount, int idleSessions, Path workDir)
            throws IOException, InterruptedException {
        Path dataDir = workDir.resolve(flavour.cliName());
        Path log = workDir.resolve(flavour.cliName() + "-probe.log");
        Files.createDirectories(workDir);
        Process probe = ChildJvm.start(List.of("-Xms" + xmx, "-Xmx" + xmx), ResourceProbe.class,
                List.of("--flavour", flavour.cliName(), "--znodes", Integer.toString(znodes),
                        "--data-dir", dataDir.toString(), "--snap-count", Integer.toString(snapCount),
                        "--idle-sessions", Integer.toString(idleSessions)), log);
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!probe.waitFor(PROBE_TIMEOUT_MS, TimeUnit.MILLISECONDS) || probe.exitValue() != 0) {
            probe.destroyForcibly();
            throw new IOException(flavour.cliName() + " probe failed; see " + log);
        }
        return ProbeReport.parse(output);
    }

    /** The figures of both servers as Markdown: when and where measured, then the table. */
    static String section(ProbeReport warden, ProbeReport apache, int znodes, String xmx, int snapCount) {
        var os = ManagementFactory.getOperatingSystemMXBean();
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        return String.format(Locale.ROOT, "Measured %s with %,d znodes (plus %,d parents), %,d watches, -Xms%s -Xmx%s%s.%n",
                        when, znodes, Integer.parseInt(warden.get(ProbeReport.ZNODES_WITH_PARENTS)) - znodes,
                        Integer.parseInt(warden.get(ProbeReport.WATCHES)), xmx, xmx,
                        snapCount == ProbeOptions.DEFAULT_SNAP_COUNT ? "" : String.format(Locale.ROOT, ", snapCount %,d", snapCount))
                + String.format(Locale.ROOT, "Machine: %s %s %s, %d cores, Java %s.%n%n", os.getName(), os.getVersion(),
                        os.getArch(), os.getAvailableProcessors(), Runtime.version())
                + FiguresTable.render(warden, apache);
    }
}
