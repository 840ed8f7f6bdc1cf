package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.HexFormat;

/**
 * Feeds bytes to a record decoder and checks the two promises a decoder makes about bad input:
 * the only exception is {@link ProtocolException}, and memory use stays in proportion to the
 * input (a hostile length or count must never be trusted for an allocation).
 */
final class DecodeProbe {
    /** Fixed cost of one decode attempt: reflection, the exception and its message. */
    private static final long BASE_ALLOCATION_BYTES = 64 * 1024;
    /** A decoded string or buffer costs a small multiple of its encoded size. */
    private static final long ALLOCATION_BYTES_PER_INPUT_BYTE = 16;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private DecodeProbe() {
    }

    /** Decodes; returns the record, or null if it failed with a ProtocolException. */
    static Record decode(Class<? extends Record> type, byte[] input) {
        long budgetBytes = BASE_ALLOCATION_BYTES + ALLOCATION_BYTES_PER_INPUT_BYTE * input.length;
        Measured first = measure(type, input);
        if (first.allocatedBytes() <= budgetBytes) {
            return first.decoded();
        }
        // A first failure on a new path links string concatenation and reflection once; only an
        // allocation that repeats on a warm path is the decoder's own.
        Measured second = measure(type, input);
        assertTrue(second.allocatedBytes() <= budgetBytes, type.getSimpleName() + ".read allocated "
                + second.allocatedBytes() + " bytes for " + input.length + " input bytes: "
                + HexFormat.of().formatHex(input));
        return second.decoded();
    }

    private record Measured(Record decoded, long allocatedBytes) {
    }

    private static Measured measure(Class<? extends Record> type, byte[] input) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        Record decoded = null;
        try {
            decoded = RecordCatalog.read(type, input);
        } catch (ProtocolException expected) {
            // the one allowed failure
        } catch (Throwable other) {
            fail(type.getSimpleName() + ".read threw " + other + " for " + HexFormat.of().formatHex(input), other);
        }
        return new Measured(decoded, THREADS.getCurrentThreadAllocatedBytes() - before);
    }

    static boolean allocationIsMeasured() {
        return THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled();
    }
}
