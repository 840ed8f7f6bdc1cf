package dev.warden.storage;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot files named {@code snapshot.<zxid in 16 hex digits>} (layout in {@link SnapshotFormat}).
 * A snapshot becomes visible under its name only once it is complete and on disk, so a crash
 * while writing leaves at most a temporary file, which the next start deletes.
 */
public final class SnapshotStore {
    private final DurationSummary writeTimes = new DurationSummary();

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStore.class);
    private static final Set<StandardOpenOption> TEMP_OPTIONS = Set.of(
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);

    private final Path dir;
    private final FileChannelFactory channels;

    public SnapshotStore(Path dir) throws IOException {
        this(dir, FileChannelFactory.DEFAULT);
    }

    public SnapshotStore(Path dir, FileChannelFactory channels) throws IOException {
        this.dir = dir;
        this.channels = channels;
        Files.createDirectories(dir);
        deleteLeftoverTempFiles();
    }

    /**
     * Writes the snapshot for {@code zxid}: header, body, trailer into a temporary file, fsync,
     * atomic rename, directory fsync. Returns the final file.
     */
    public Path write(long zxid, SnapshotBodyWriter body) throws IOException {
        long startNs = System.nanoTime();
        Path target = dir.resolve(SnapshotFormat.fileName(zxid));
        Path temp = dir.resolve(target.getFileName() + SnapshotFormat.TEMP_SUFFIX);
        try (FileChannel channel = channels.open(temp, TEMP_OPTIONS)) {
            CountingStream raw = new CountingStream(Channels.newOutputStream(channel));
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(
                    new BufferedOutputStream(new CheckedOutputStream(raw, crc), 64 * 1024));
            out.write(SnapshotFormat.header(zxid));
            body.write(out);
            out.flush();
            long bodyBytes = raw.countBytes - SnapshotFormat.HEADER_BYTES;
            ByteBuffer trailer = ByteBuffer.allocate(SnapshotFormat.TRAILER_BYTES)
                    .putLong(bodyBytes).putInt((int) crc.getValue()).flip();
            while (trailer.hasRemaining()) {
                channel.write(trailer);
            }
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.fsync(dir, channels);
        writeTimes.record(System.nanoTime() - startNs);
        return target;
    }

    /**
     * One snapshot file as found: its zxid and, if it fails verification, why.
     *
     * @param problem empty when header, length and checksum all agree
     */
    public record SnapshotFile(long zxid, Path file, Optional<String> problem) {
        public boolean isValid() {
            return problem.isEmpty();
        }

        /** The verified snapshot; only for a valid file. */
        public Snapshot snapshot() {
            if (!isValid()) {
                throw new IllegalStateException(file + " is not a valid snapshot: " + problem.get());
            }
            return new Snapshot(zxid, file);
        }
    }

    /**
     * Verifies one snapshot file wherever it lies (a copy, a backup): its name must be
     * {@code snapshot.<16 hex digits>}, and header, length and checksum must agree. Reads only.
     */
    public static SnapshotFile verifyFile(Path file) throws IOException {
        OptionalLong zxid = SnapshotFormat.zxidOf(file);
        if (zxid.isEmpty()) {
            return new SnapshotFile(-1, file, Optional.of("not named snapshot.<16 hex digits>"));
        }
        if (!Files.isRegularFile(file)) {
            return new SnapshotFile(zxid.getAsLong(), file, Optional.of("no such file"));
        }
        return new SnapshotFile(zxid.getAsLong(), file, SnapshotFormat.verify(file, zxid.getAsLong()));
    }

    /** Every snapshot file, verified, newest first. Reads each whole file to check its checksum. */
    public List<SnapshotFile> verifyAll() throws IOException {
        List<SnapshotFile> all = new ArrayList<>();
        for (Path file : newestFirst()) {
            long zxid = SnapshotFormat.zxidOf(file).orElseThrow();
            all.add(new SnapshotFile(zxid, file, SnapshotFormat.verify(file, zxid)));
        }
        return all;
    }

    /** Moves snapshot files into {@code intoDir} (created if needed), keeping their names. Deletes nothing. */
    public void moveAside(List<Path> files, Path intoDir) throws IOException {
        if (files.isEmpty()) {
            return;
        }
        Files.createDirectories(intoDir);
        for (Path file : files) {
            Files.move(file, intoDir.resolve(file.getFileName()), StandardCopyOption.ATOMIC_MOVE);
        }
        Directories.fsync(intoDir, channels);
        Directories.fsync(dir, channels);
    }

    /** How long each snapshot written through this store took, fsyncs included. */
    public DurationSummary writeTimes() {
        return writeTimes;
    }

    public Path dir() {
        return dir;
    }

    /** The newest snapshot whose checksum verifies; invalid newer ones are logged and skipped. */
    public Optional<Snapshot> newestValid() throws IOException {
        for (Path file : newestFirst()) {
            long zxid = SnapshotFormat.zxidOf(file).orElseThrow();
            Optional<String> problem = SnapshotFormat.verify(file, zxid);
            if (problem.isEmpty()) {
                return Optional.of(new Snapshot(zxid, file));
            }
            LOG.warn("Skipping invalid snapshot {}: {}", file, problem.get());
        }
        return Optional.empty();
    }

    /**
     * Keeps the newest {@code retainCount} valid snapshots and deletes every snapshot older than
     * the oldest of them. Deletes nothing while fewer than {@code retainCount} are valid.
     * Returns the deleted files.
     */
    public List<Path> purge(int retainCount) throws IOException {
        if (retainCount < 1) {
            throw new IllegalArgumentException("retainCount must be at least 1: " + retainCount);
        }
        List<Path> newestFirst = newestFirst();
        int valid = 0;
        int firstDeletable = -1;
        for (int i = 0; i < newestFirst.size(); i++) {
            Path file = newestFirst.get(i);
            if (SnapshotFormat.verify(file, SnapshotFormat.zxidOf(file).orElseThrow()).isEmpty()) {
                valid++;
                if (valid == retainCount) {
                    firstDeletable = i + 1;
                    break;
                }
            }
        }
        List<Path> deleted = new ArrayList<>();
        if (firstDeletable < 0) {
            return deleted;
        }
        for (Path file : newestFirst.subList(firstDeletable, newestFirst.size())) {
            Files.deleteIfExists(file);
            deleted.add(file);
        }
        if (!deleted.isEmpty()) {
            Directories.fsync(dir, channels);
            LOG.info("Purged {} old snapshots from {}", deleted.size(), dir);
        }
        return deleted;
    }

    /** The zxid of the oldest snapshot file left (valid or not): the log must be kept after it. */
    public OptionalLong oldestZxid() {
        List<Path> files = snapshotFiles();
        return files.isEmpty() ? OptionalLong.empty() : SnapshotFormat.zxidOf(files.get(0));
    }

    /** The zxid of the newest snapshot file (valid or not), if any. */
    public OptionalLong newestZxid() {
        List<Path> files = snapshotFiles();
        return files.isEmpty() ? OptionalLong.empty() : SnapshotFormat.zxidOf(files.get(files.size() - 1));
    }

    /** Every snapshot file, valid or not, oldest first. */
    public List<Path> snapshotFiles() {
        try {
            List<Path> files = newestFirst();
            Collections.reverse(files);
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Path> newestFirst() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path file : stream) {
                if (SnapshotFormat.zxidOf(file).isPresent() && Files.isRegularFile(file)) {
                    files.add(file);
                }
            }
        }
        files.sort(Comparator.comparingLong((Path file) -> SnapshotFormat.zxidOf(file).orElseThrow()).reversed());
        return files;
    }

    private void deleteLeftoverTempFiles() throws IOException {
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "snapshot.*" + SnapshotFormat.TEMP_SUFFIX)) {
            for (Path file : stream) {
                LOG.warn("Deleting {}, left over by a snapshot write that did not finish", file);
                Files.deleteIfExists(file);
            }
        }
    }

    /** Counts bytes on their way to the file; the body writer may not close the file under us. */
    private static final class CountingStream extends FilterOutputStream {
        long countBytes;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            countBytes++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
            countBytes += length;
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
