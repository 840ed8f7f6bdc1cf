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
 * Runs {@link ResourceProbe} in a child JVM for Warden and then for Apache ZooKeeper, with the
 * same heap limit, and writes the figures side by side between the markers of
 * docs/RESOURCES.md (or prints them when no output file is given).
 *
 * <p>Usage: {@code ResourceComparison --work-dir DIR [--znodes N] [--xmx 4g] [--out docs/RESOURCES.md]}
 */
public final class ResourceComparison {
    static final String BEGIN_MARKER = "<!-- figures:begin (written by ResourceComparison) -->";
    static final String END_MARKER = "<!-- figures:end -->";
    private static final long PROBE_TIMEOUT_MS = TimeUnit.HOURS.toMillis(2);

    private ResourceComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path workDir = null;
        Path out = null;
        int znodes = ProbeOptions.DEFAULT_ZNODES;
        String xmx = "4g";
        try {
            for (int i = 0; i < args.length; i += 2) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                String value = args[i + 1];
                switch (option) {
                    case "--work-dir" -> workDir = Path.of(value);
                    case "--out" -> out = Path.of(value);
                    case "--znodes" -> znodes = positiveInt(option, value);
                    case "--xmx" -> xmx = heapSize(value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (workDir == null) {
                throw new IllegalArgumentException("--work-dir is required");
            }
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage() + "; usage: ResourceComparison --work-dir DIR [--znodes N] "
                    + "[--xmx 4g] [--out docs/RESOURCES.md]");
            System.exit(2);
            return;
        }
        ProbeReport warden = runProbe(Flavour.WARDEN, znodes, xmx, workDir);
        ProbeReport apache = runProbe(Flavour.APACHE, znodes, xmx, workDir);
        String section = section(warden, apache, znodes, xmx);
        if (out == null) {
            System.out.print(section);
        } else {
            writeSection(out, section);
            System.out.println("figures written to " + out);
        }
    }

    private static int positiveInt(String option, String text) {
        try {
            int value = Integer.parseInt(text.replace("_", ""));
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a whole number >= 1: '" + text + "'");
    }

    /** A JVM heap size as -Xmx takes it: digits and an optional k, m or g. */
    private static String heapSize(String text) {
        if (!text.matches("[0-9]+[kKmMgG]?")) {
            throw new IllegalArgumentException("--xmx must look like 4g, 512m or 4096m: '" + text + "'");
        }
        return text;
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
