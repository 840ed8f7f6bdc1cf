package dev.warden.client;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Stat;
import java.util.List;

/** The result of one sub-operation of a transaction or of a multiRead. */
public sealed interface OpResult {
    /** A create; {@code path} is relative to the chroot and carries any sequential suffix. */
    record Created(String path, Stat stat) implements OpResult {
    }

    record Deleted() implements OpResult {
    }

    record DataSet(Stat stat) implements OpResult {
    }

    record Checked() implements OpResult {
    }

    /** A multiRead getData. */
    record Data(byte[] data, Stat stat) implements OpResult {
    }

    /** A multiRead getChildren. */
    record Children(List<String> children) implements OpResult {
    }

    /** A multiRead read that failed (reads are independent, so others may still succeed). */
    record Failed(ErrorCode code) implements OpResult {
    }
}
