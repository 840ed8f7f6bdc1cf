package dev.warden.storage;

import java.util.Objects;

/**
 * Settings of a {@link TxnLog}.
 *
 * @param forceSync        whether {@link TxnLog#flush()} fsyncs; turning it off gives up durability
 *                         across power loss and is only meant for tests and benchmarks
 * @param preallocateBytes a segment file is grown in steps of this many bytes ahead of the data,
 *                         so an fsync rarely has to persist a new file length; 0 disables it
 * @param segmentMaxBytes  once a segment holds this many bytes, the next flush starts a new
 *                         segment (a soft limit: one flush never spans two segments)
 * @param channels         opens every file channel the log uses
 * @param slowFsyncWarningMs a flush whose fsync takes at least this long is logged as a warning
 *                         and counted in {@link FsyncStats#slowCount()}; 0 never warns
 * @param directIo         whether appends bypass the page cache ({@code O_DIRECT}, see
 *                         {@link DirectWriter}); where the file system refuses it, the log writes
 *                         through the page cache and says so once
 */
public record TxnLogOptions(boolean forceSync, long preallocateBytes, long segmentMaxBytes,
                            FileChannelFactory channels, long slowFsyncWarningMs, boolean directIo) {

    public static final long DEFAULT_PREALLOCATE_BYTES = 64L * 1024 * 1024;
    public static final long DEFAULT_SEGMENT_MAX_BYTES = 256L * 1024 * 1024;
    /** ZooKeeper's fsync.warningthresholdms default. */
    public static final long DEFAULT_SLOW_FSYNC_WARNING_MS = 1000;

    public TxnLogOptions {
        if (preallocateBytes < 0) {
            throw new IllegalArgumentException("preallocateBytes must be >= 0: " + preallocateBytes);
        }
        if (segmentMaxBytes <= SegmentFormat.HEADER_BYTES) {
            throw new IllegalArgumentException("segmentMaxBytes too small: " + segmentMaxBytes);
        }
        Objects.requireNonNull(channels, "channels");
        if (slowFsyncWarningMs < 0) {
            throw new IllegalArgumentException("slowFsyncWarningMs must be >= 0: " + slowFsyncWarningMs);
        }
    }

    /**
     * fsync on, 64 MiB preallocation steps, 256 MiB segments, plain file channels, warn at 1 s
     * fsyncs, direct I/O where the file system allows it.
     */
    public static TxnLogOptions defaults() {
        return new TxnLogOptions(true, DEFAULT_PREALLOCATE_BYTES, DEFAULT_SEGMENT_MAX_BYTES,
                FileChannelFactory.DEFAULT, DEFAULT_SLOW_FSYNC_WARNING_MS, true);
    }

    public TxnLogOptions withForceSync(boolean value) {
        return new TxnLogOptions(value, preallocateBytes, segmentMaxBytes, channels, slowFsyncWarningMs, directIo);
    }

    public TxnLogOptions withPreallocateBytes(long value) {
        return new TxnLogOptions(forceSync, value, segmentMaxBytes, channels, slowFsyncWarningMs, directIo);
    }

    public TxnLogOptions withSegmentMaxBytes(long value) {
        return new TxnLogOptions(forceSync, preallocateBytes, value, channels, slowFsyncWarningMs, directIo);
    }

    public TxnLogOptions withChannels(FileChannelFactory value) {
        return new TxnLogOptions(forceSync, preallocateBytes, segmentMaxBytes, value, slowFsyncWarningMs, directIo);
    }

    public TxnLogOptions withDirectIo(boolean value) {
        return new TxnLogOptions(forceSync, preallocateBytes, segmentMaxBytes, channels, slowFsyncWarningMs, value);
    }

    public TxnLogOptions withSlowFsyncWarningMs(long value) {
        return new TxnLogOptions(forceSync, preallocateBytes, segmentMaxBytes, channels, value, directIo);
    }
}
