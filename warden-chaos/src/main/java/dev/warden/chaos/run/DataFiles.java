package dev.warden.chaos.run;

import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Where each flavour keeps snapshots and log segments in its data directory, and the damage done
 * to them at rest (on a stopped member): Warden's {@code snapshots/snapshot.*} and
 * {@code log/log.*}, ZooKeeper's {@code version-2/snapshot.*} and {@code version-2/log.*}.
 */
public final class DataFiles {
    private DataFiles() {
    }

    public static List<Path> snapshots(Flavour flavour, Path dataDir) throws IOException {
        return files(flavour == Flavour.WARDEN ? dataDir.resolve("snapshots") : dataDir.resolve("version-2"),
                "snapshot.");
    }

    public static List<Path> logSegments(Flavour flavour, Path dataDir) throws IOException {
        return files(flavour == Flavour.WARDEN ? dataDir.resolve("log") : dataDir.resolve("version-2"), "log.");
    }

    private static List<Path> files(Path dir, String prefix) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            // both name files by a hex zxid after the prefix; sorting by name sorts by zxid only at equal
            // length, so compare the numbers
            return list.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .filter(p -> !p.getFileName().toString().endsWith(".tmp"))
                    .sorted(Comparator.comparingLong(p -> zxidOf(p, prefix))).toList();
        }
    }

    private static long zxidOf(Path file, String prefix) {
        String name = file.getFileName().toString().substring(prefix.length());
        int dot = name.indexOf('.');
        try {
            return Long.parseUnsignedLong(dot < 0 ? name : name.substring(0, dot), 16);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Bit rot: 64 bytes in the middle of the newest snapshot overwritten; the file, or empty if there is none. */
    public static String corruptNewestSnapshot(Flavour flavour, Path dataDir) throws IOException {
        List<Path> snapshots = snapshots(flavour, dataDir);
        if (snapshots.isEmpty()) {
            return "no snapshot to corrupt";
        }
        Path newest = snapshots.get(snapshots.size() - 1);
        byte[] bytes = Files.readAllBytes(newest);
        int start = Math.max(0, bytes.length / 2 - 32);
        for (int i = start; i < Math.min(bytes.length, start + 64); i++) {
            bytes[i] = (byte) 0xA5;
        }
        Files.write(newest, bytes);
        return "overwrote 64 bytes at offset " + start + " of " + newest.getFileName() + " (" + bytes.length + " bytes)";
    }

    /** The oldest log segment deleted, as a purge that went too far would. */
    public static String purgeOldestSegment(Flavour flavour, Path dataDir) throws IOException {
        List<Path> segments = logSegments(flavour, dataDir);
        if (segments.isEmpty()) {
            return "no log segment to purge";
        }
        Files.delete(segments.get(0));
        return "deleted " + segments.get(0).getFileName() + " (oldest of " + segments.size() + ")";
    }

    /** 64 bytes overwritten at a random place inside the written part of a random log segment. */
    public static String damageSegment(Flavour flavour, Path dataDir, Random random) throws IOException {
        List<Path> segments = logSegments(flavour, dataDir);
        if (segments.isEmpty()) {
            return "no log segment to damage";
        }
        Path segment = segments.get(random.nextInt(segments.size()));
        byte[] bytes = Files.readAllBytes(segment);
        int written = bytes.length;
        while (written > 0 && bytes[written - 1] == 0) {
            written--;
        }
        if (written < 128) {
            return "segment " + segment.getFileName() + " holds too little to damage";
        }
        int start = 64 + random.nextInt(Math.max(1, written - 128));
        for (int i = start; i < start + 64; i++) {
            bytes[i] = (byte) ~bytes[i];
        }
        Files.write(segment, bytes);
        return "inverted 64 bytes at offset " + start + " of " + segment.getFileName() + " (" + written
                + " bytes written)";
    }

    /** Everything in the data directory removed except myid, as a replaced disk would leave it. */
    public static String wipe(Path dataDir) throws IOException {
        long removed = 0;
        try (Stream<Path> walk = Files.walk(dataDir)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (path.equals(dataDir) || path.getFileName().toString().equals("myid")) {
                    continue;
                }
                Files.delete(path);
                removed++;
            }
        }
        return "removed " + removed + " files and directories, kept myid";
    }
}
