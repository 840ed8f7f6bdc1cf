package dev.warden.bench.etcd;

import io.etcd.jetcd.ByteSequence;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Key names, values and error names shared by the etcd drivers. */
final class EtcdKeys {
    private EtcdKeys() {
    }

    static ByteSequence key(String prefix, int index) {
        return ByteSequence.from(String.format(Locale.ROOT, "%s/k%06d", prefix, index), StandardCharsets.UTF_8);
    }

    static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    /** A value of {@code sizeBytes} bytes; the same filler as the ZooKeeper workloads write. */
    static ByteSequence value(int sizeBytes) {
        byte[] value = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            value[i] = (byte) ('a' + i % 26);
        }
        return ByteSequence.from(value);
    }

    /**
     * The name a failure is counted under: a gRPC status by its code and etcd's description
     * ("UNAVAILABLE: etcdserver: leader changed"), anything else by the innermost cause's class.
     */
    static String errorName(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof StatusRuntimeException || cause instanceof StatusException) {
            Status status = Status.fromThrowable(cause);
            return status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
        }
        return cause.getClass().getSimpleName();
    }
}
