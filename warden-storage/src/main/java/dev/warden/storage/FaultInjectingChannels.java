package dev.warden.storage;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * For tests and simulation: channels over real files that behave like a disk which fills up: once the byte budget shared
 * by all channels is spent, writes fail with "No space left on device" (a write that straddles
 * the limit lands partially, as a real one can). Truncation and fsync keep working. Fsyncs can
 * also be made slow, like a disk busy with other work. A {@link WriteHook} sees every write and
 * can fail any of them; a {@link TruncateHook} does the same for truncations, and a
 * {@link ForceHook} for fsyncs (it also hears when an fsync has completed).
 */
public final class FaultInjectingChannels implements FileChannelFactory {

    private static final long UNLIMITED = Long.MAX_VALUE;

    private final AtomicLong writeBudgetBytes = new AtomicLong(UNLIMITED);
    private final AtomicLong forceCount = new AtomicLong();
    private final AtomicLong writeCallCount = new AtomicLong();
    private volatile long forceDelayMs;
    private volatile WriteHook writeHook = (file, positionBytes, bytes) -> { };
    private volatile TruncateHook truncateHook = (file, sizeBytes) -> { };
    private volatile ForceHook forceHook = file -> { };

    /** Sees each write before it reaches the file; throwing fails that write, with nothing written. */
    @FunctionalInterface
    public interface WriteHook {
        /** @param bytes a read-only view of the bytes about to be written */
        void beforeWrite(Path file, long positionBytes, ByteBuffer bytes) throws IOException;
    }

    /** Sees each truncation before it reaches the file; it may block it, or fail it by throwing. */
    @FunctionalInterface
    public interface TruncateHook {
        void beforeTruncate(Path file, long sizeBytes) throws IOException;
    }

    /** Sees each fsync before it reaches the file (throwing fails it, as a failing disk would) and after it completed. */
    public interface ForceHook {
        void beforeForce(Path file) throws IOException;

        /** Everything written to {@code file} before the fsync began is durable now. */
        default void afterForce(Path file) {
        }
    }

    /** From now on every fsync of every channel passes {@code hook}. */
    public void hookForces(ForceHook hook) {
        forceHook = hook;
    }

    /** From now on every truncation of every channel passes {@code hook} first. */
    public void hookTruncates(TruncateHook hook) {
        truncateHook = hook;
    }

    /** From now on every write of every channel passes {@code hook} first. */
    public void hookWrites(WriteHook hook) {
        writeHook = hook;
    }

    /** From now on only {@code bytes} more bytes can be written, by all channels together. */
    public void limitWritesTo(long bytes) {
        writeBudgetBytes.set(bytes);
    }

    /** Space has come back. */
    public void allowWrites() {
        writeBudgetBytes.set(UNLIMITED);
    }

    /** From now on every fsync takes at least {@code ms} longer; 0 makes them plain again. */
    public void delayForcesBy(long ms) {
        forceDelayMs = ms;
    }

    public long forceCount() {
        return forceCount.get();
    }

    public long writeCallCount() {
        return writeCallCount.get();
    }

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
        // A direct channel moves whole blocks only, so a full disk cuts its writes at a block.
        int grantUnitBytes = options.contains(DirectIo.OPTION) ? DirectIo.blockBytes(path.getParent()) : 1;
        return new FaultyChannel(path, FileChannel.open(path, options), Math.max(1, grantUnitBytes));
    }

    /** Takes up to {@code wanted} bytes (whole units) from the budget; fails when it is spent. */
    private int reserve(int wanted, int unitBytes) throws IOException {
        while (true) {
            long budget = writeBudgetBytes.get();
            if (budget == UNLIMITED) {
                return wanted;
            }
            long grantable = budget / unitBytes * unitBytes;
            if (grantable <= 0 && wanted > 0) {
                throw new IOException("No space left on device");
            }
            int granted = (int) Math.min(wanted, grantable);
            if (writeBudgetBytes.compareAndSet(budget, budget - granted)) {
                return granted;
            }
        }
    }

    private final class FaultyChannel extends FileChannel {
        private final Path path;
        private final FileChannel delegate;
        private final int grantUnitBytes;

        FaultyChannel(Path path, FileChannel delegate, int grantUnitBytes) {
            this.path = path;
            this.delegate = delegate;
            this.grantUnitBytes = grantUnitBytes;
        }

        @Override
        public int write(ByteBuffer source, long position) throws IOException {
            writeCallCount.incrementAndGet();
            writeHook.beforeWrite(path, position, source.asReadOnlyBuffer());
            int granted = reserve(source.remaining(), grantUnitBytes);
            ByteBuffer slice = source.slice().limit(granted);
            int written = delegate.write(slice, position);
            source.position(source.position() + written);
            return written;
        }

        @Override
        public int write(ByteBuffer source) throws IOException {
            int written = write(source, delegate.position());
            delegate.position(delegate.position() + written);
            return written;
        }

        @Override
        public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += write(sources[i]);
            }
            return total;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            forceCount.incrementAndGet();
            ForceHook hook = forceHook;
            hook.beforeForce(path);
            long delayMs = forceDelayMs;
            if (delayMs > 0) {
                try {
                    Thread.sleep(delayMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted during a delayed fsync");
                }
            }
            delegate.force(metaData);
            hook.afterForce(path);
        }

        @Override
        public int read(ByteBuffer target) throws IOException {
            return delegate.read(target);
        }

        @Override
        public long read(ByteBuffer[] targets, int offset, int length) throws IOException {
            return delegate.read(targets, offset, length);
        }

        @Override
        public int read(ByteBuffer target, long position) throws IOException {
            return delegate.read(target, position);
        }

        @Override
        public long position() throws IOException {
            return delegate.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            delegate.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return delegate.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            truncateHook.beforeTruncate(path, size);
            delegate.truncate(size);
            return this;
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return delegate.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel source, long position, long count) throws IOException {
            throw new UnsupportedOperationException("not needed by the storage layer");
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            throw new UnsupportedOperationException("not needed by the storage layer");
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return delegate.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return delegate.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            delegate.close();
        }
    }
}
