package dev.warden.bench.resources;

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
    static final String BEGIN_MARKER = "<!-- figures:begin (written by ResourceComparison) -->";
    static final String END_MARKER = "<!-- figures:end -->";
    private static final long PROBE_TIMEOUT_MS = TimeUnit.HOURS.toMillis(2);

    private ResourceComparison() {
    }

    static ProbeReport runProbe(Flavour flavour, int znodes, String xmx, Path workDir)
            throws IOException, InterruptedException {
        Path dataDir = workDir.resolve(flavour.cliName());
        Path log = workDir.resolve(flavour.cliName() + "-probe.log");
        Files.createDirectories(workDir);
        Process probe = ChildJvm.start(List.of("-Xms" + xmx, "-Xmx" + xmx), ResourceProbe.class,
                List.of("--flavour", flavour.cliName(), "--znodes", Integer.toString(znodes),
                        "--data-dir", dataDir.toString()), log);
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!probe.waitFor(PROBE_TIMEOUT_MS, TimeUnit.MILLISECONDS) || probe.exitValue() != 0) {
            probe.destroyForcibly();
            throw new IOException(flavour.cliName() + " probe failed; see " + log);
        }
        return ProbeReport.parse(output);
    }

    static String section(ProbeReport warden, ProbeReport apache, int znodes, String xmx) {
        var os = ManagementFactory.getOperatingSystemMXBean();
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        return BEGIN_MARKER + "\n"
                + String.format(Locale.ROOT, "Measured %s with %,d znodes (plus %,d parents), %,d watches, -Xms%s -Xmx%s.%n",
                        when, znodes, Integer.parseInt(warden.get(ProbeReport.ZNODES_WITH_PARENTS)) - znodes,
                        Integer.parseInt(warden.get(ProbeReport.WATCHES)), xmx, xmx)
                + String.format(Locale.ROOT, "Machine: %s %s %s, %d cores, Java %s.%n%n", os.getName(), os.getVersion(),
                        os.getArch(), os.getAvailableProcessors(), Runtime.version())
                + FiguresTable.render(warden, apache)
                + END_MARKER + "\n";
    }

    /** Replaces the text between the markers, keeping the rest of the document. */
    static void writeSection(Path file, String section) throws IOException {
        if (!Files.exists(file)) {
            Files.writeString(file, "# Resource figures\n\n" + section);
            return;
        }
        String text = Files.readString(file);
        int begin = text.indexOf(BEGIN_MARKER);
        int end = text.indexOf(END_MARKER);
        if (begin < 0 || end < begin) {
            throw new IOException(file + " has no figures markers; add\n" + BEGIN_MARKER + "\n" + END_MARKER);
        }
        int after = end + END_MARKER.length();
        if (after < text.length() && text.charAt(after) == '\n') {
            after++;
        }
        Files.writeString(file, text.substring(0, begin) + section + text.substring(after));
    }
}
