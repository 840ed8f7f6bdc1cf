package dev.warden.server.recovery;

import dev.warden.storage.Directories;
import dev.warden.storage.FileChannelFactory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;

/**
 * The file {@code resyncRequired} in an ensemble member's data directory: this member gave up a
 * history it could not vouch for: until it has taken a whole copy of a leader's history it is no
 * candidate, and its promise counts toward a leader's quorum only beside members that kept their
 * history and meet every quorum (the consensus core's {@code Membership.vouchesForHistory}). It
 * is written, durably, before anything is set aside, so a crash in between cannot leave a member that looks
 * new: a new member votes, and a member that forgot what it acknowledged could then help elect a
 * leader missing committed writes. It is removed once the member has synchronized with a leader
 * and serves. Creating the file by hand (with the member stopped) makes a member start over
 * this way.
 */
public final class ResyncMarker {
    public static final String FILE_NAME = "resyncRequired";

    private ResyncMarker() {
    }

    public static Path path(Path dataDir) {
        return dataDir.resolve(FILE_NAME);
    }

    public static boolean exists(Path dataDir) {
        return Files.exists(path(dataDir));
    }

    /** Why the member started over, as written in the file; empty if there is no marker. */
    public static Optional<String> reason(Path dataDir) throws IOException {
        Path file = path(dataDir);
        return Files.exists(file) ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim())
                : Optional.empty();
    }

    /** Writes the marker and makes it durable (file and directory) before returning. */
    public static void write(Path dataDir, String reason) throws IOException {
        Files.createDirectories(dataDir);
        Path temp = dataDir.resolve(FILE_NAME + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
            channel.write(java.nio.ByteBuffer.wrap((reason + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
        Files.move(temp, path(dataDir), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(dataDir);
    }

    /** Removes the marker durably: the member holds a leader's history again. */
    public static void remove(Path dataDir) throws IOException {
        if (Files.deleteIfExists(path(dataDir))) {
            fsyncDirectory(dataDir);
        }
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        Directories.fsync(dir, FileChannelFactory.DEFAULT);
    }
}
