package dev.warden.cli.faults;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a crash may take back: before each write the bytes it overwrites (and the file's size),
 * and after each fsync that the file is durable. A process killed with SIGKILL loses nothing
 * from the page cache, so a chaos run that wants a crash to lose what was never fsynced kills the
 * member and then {@link #undo undoes} every write made after its file's last fsync, restoring
 * the files to what a disk that lost its cache would show. Writes only: a truncation is taken as durable.
 */
public final class UnsyncedWriteJournal implements AutoCloseable {
    private static final byte WRITE = 'W';
    private static final byte SYNCED = 'S';

    private final Path journal;
    private DataOutputStream out;
    private final Set<Path> pending = new HashSet<>();

    public UnsyncedWriteJournal(Path journal) throws IOException {
        this.journal = journal;
        this.out = open(journal);
    }

    private static DataOutputStream open(Path journal) throws IOException {
        return new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(journal,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)));
    }

    /** Before {@code bytes} are written to {@code file} at {@code position}: keeps what they overwrite. */
    public synchronized void beforeWrite(Path file, long position, int length) throws IOException {
        long sizeBefore;
        byte[] old;
        try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
            sizeBefore = reader.size();
            int overlap = (int) Math.max(0, Math.min(length, sizeBefore - position));
            ByteBuffer buffer = ByteBuffer.allocate(overlap);
            while (buffer.hasRemaining() && reader.read(buffer, position + buffer.position()) >= 0) {
                // read until the overlap is whole
            }
            old = buffer.array();
        } catch (NoSuchFileException created) {
            sizeBefore = 0;
            old = new byte[0];
        }
        out.writeByte(WRITE);
        out.writeUTF(file.toAbsolutePath().toString());
        out.writeLong(position);
        out.writeLong(sizeBefore);
        out.writeInt(old.length);
        out.write(old);
        // in the page cache before the write itself happens: a SIGKILL keeps both or the journal only
        out.flush();
        pending.add(file.toAbsolutePath());
    }

    /** Everything written to {@code file} so far is durable; once no file has unsynced writes the journal starts over. */
    public synchronized void afterForce(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        if (!pending.remove(absolute)) {
            return;
        }
        if (pending.isEmpty()) {
            out.close();
            out = open(journal);
        } else {
            out.writeByte(SYNCED);
            out.writeUTF(absolute.toString());
            out.flush();
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    private record Write(Path file, long position, long sizeBefore, byte[] old) {
    }

    /**
     * Restores every file the journal names to its state at its last fsync, newest write first,
     * and empties the journal; only while the process that wrote it is dead.
     *
     * @return how many writes were undone
     */
    public static int undo(Path journal) throws IOException {
        if (!Files.exists(journal)) {
            return 0;
        }
        Map<Path, List<Write>> unsynced = new LinkedHashMap<>();
        try (InputStream raw = Files.newInputStream(journal); DataInputStream in = new DataInputStream(raw)) {
            while (true) {
                byte type;
                try {
                    type = in.readByte();
                } catch (EOFException end) {
                    break;
                }
                try {
                    Path file = Path.of(in.readUTF());
                    if (type == SYNCED) {
                        unsynced.remove(file);
                        continue;
                    }
                    long position = in.readLong();
                    long sizeBefore = in.readLong();
                    byte[] old = new byte[in.readInt()];
                    in.readFully(old);
                    unsynced.computeIfAbsent(file, f -> new ArrayList<>()).add(new Write(file, position, sizeBefore,
                            old));
                } catch (EOFException torn) {
                    // the process died while journaling a write it then never made
                    break;
                }
            }
        }
        int undone = 0;
        for (List<Write> writes : unsynced.values()) {
            for (int i = writes.size() - 1; i >= 0; i--) {
                Write write = writes.get(i);
                if (!Files.exists(write.file())) {
                    continue;
                }
                try (FileChannel channel = FileChannel.open(write.file(), StandardOpenOption.WRITE)) {
                    ByteBuffer old = ByteBuffer.wrap(write.old());
                    while (old.hasRemaining()) {
                        channel.write(old, write.position() + old.position());
                    }
                    if (channel.size() > write.sizeBefore()) {
                        channel.truncate(write.sizeBefore());
                    }
                    channel.force(true);
                }
                undone++;
            }
        }
        Files.write(journal, new byte[0]);
        return undone;
    }
}
