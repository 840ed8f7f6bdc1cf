package dev.warden.server.log;

import dev.warden.consensus.EpochState;
import dev.warden.storage.Directories;
import dev.warden.storage.FileChannelFactory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The two Zab epochs on disk, as two small files in the data directory holding a decimal number:
 * {@code acceptedEpoch} and {@code currentEpoch}. Each file is replaced atomically (write a
 * temporary file, fsync it, rename it over the old one, fsync the directory), and
 * {@code acceptedEpoch} is written first: epochs only grow and currentEpoch never exceeds
 * acceptedEpoch, so a crash between the two writes still leaves a valid pair on disk.
 */
public final class EpochFiles {
    public static final String ACCEPTED_EPOCH = "acceptedEpoch";
    public static final String CURRENT_EPOCH = "currentEpoch";
    private static final String TEMP_SUFFIX = ".tmp";
    /** What an operator can do about damaged epoch files: they are promises, never guessed. */
    private static final String WAY_OUT = ". Restore them from a backup, or make the member start over: with it"
            + " stopped, remove both epoch files and create an empty file named resyncRequired in the data directory"
            + " (it then takes a copy from the leader and vouches for no history until it has; docs/STORAGE.md)";

    private final FileChannelFactory channels;

    public EpochFiles(FileChannelFactory channels) {
        this.channels = channels;
    }

    /** Epoch files written through plain file channels. */
    public static EpochFiles defaults() {
        return new EpochFiles(FileChannelFactory.DEFAULT);
    }

    /**
     * The persisted epochs; {@link EpochState#INITIAL} when neither file exists (a new member).
     * A missing currentEpoch beside an acceptedEpoch reads as 0: that is the state after a crash
     * between the very first two writes. Anything else unexpected is an {@link IOException}
     * naming the file, since guessing an epoch could break Zab's promises.
     */
    public EpochState load(Path dataDir) throws IOException {
        Long accepted = read(dataDir.resolve(ACCEPTED_EPOCH));
        Long current = read(dataDir.resolve(CURRENT_EPOCH));
        if (accepted == null && current == null) {
            return EpochState.INITIAL;
        }
        if (accepted == null) {
            throw new IOException(dataDir.resolve(ACCEPTED_EPOCH) + " is missing but " + CURRENT_EPOCH + " is "
                    + current + ": the epoch files were damaged or moved" + WAY_OUT);
        }
        long currentEpoch = current == null ? 0 : current;
        if (currentEpoch > accepted) {
            throw new IOException(CURRENT_EPOCH + " " + currentEpoch + " is above " + ACCEPTED_EPOCH + " " + accepted
                    + " in " + dataDir + ": the epoch files are damaged" + WAY_OUT);
        }
        return new EpochState(accepted, currentEpoch);
    }

    /** Durably replaces both files; when this returns, a crash cannot bring back older epochs. */
    public void store(Path dataDir, EpochState epochs) throws IOException {
        Files.createDirectories(dataDir);
        replace(dataDir, ACCEPTED_EPOCH, epochs.acceptedEpoch());
        replace(dataDir, CURRENT_EPOCH, epochs.currentEpoch());
    }

    private void replace(Path dataDir, String name, long value) throws IOException {
        Path target = dataDir.resolve(name);
        Path temp = dataDir.resolve(name + TEMP_SUFFIX);
        ByteBuffer text = ByteBuffer.wrap((value + "\n").getBytes(StandardCharsets.US_ASCII));
        try (FileChannel channel = channels.open(temp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))) {
            long position = 0;
            while (text.hasRemaining()) {
                position += channel.write(text, position);
            }
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.fsync(dataDir, channels);
    }

    private static Long read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException missing) {
            return null;
        } catch (java.nio.charset.CharacterCodingException binary) {
            throw new IOException(file + " does not hold a decimal epoch (non-ASCII bytes)", binary);
        }
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw new NumberFormatException("negative");
            }
            return value;
        } catch (NumberFormatException bad) {
            throw new IOException(file + " holds '" + abbreviate(text) + "', not a decimal epoch: the file is damaged"
                    + WAY_OUT, bad);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
