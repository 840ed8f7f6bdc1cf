package dev.warden.chaos.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every client operation of a run, recorded as it completes. Threads of many clients record
 * into one history; times are monotonic nanoseconds since the history began.
 */
public final class History {
    private final long originNs = System.nanoTime();
    private final AtomicLong nextId = new AtomicLong();
    private final List<Op> ops = new ArrayList<>();

    /** Monotonic nanoseconds since the run began; every op and nemesis event uses this clock. */
    public long nowNs() {
        return System.nanoTime() - originNs;
    }

    /** An operation about to be sent; complete it with one of {@link Pending}'s methods. */
    public Pending invoke(int client, String workload, String f, String key, Map<String, Long> input) {
        return new Pending(nextId.getAndIncrement(), client, workload, f, key, input, nowNs());
    }

    /** An operation whose invocation was noted earlier, at {@code invokeNs} (a watch window, say). */
    public Pending invokeAt(long invokeNs, int client, String workload, String f, String key,
                            Map<String, Long> input) {
        return new Pending(nextId.getAndIncrement(), client, workload, f, key, input, invokeNs);
    }

    /** Adds an op built elsewhere (tests, or a history read back). */
    public synchronized void add(Op op) {
        ops.add(op);
    }

    /** A copy of every op so far, in invocation order. */
    public synchronized List<Op> ops() {
        List<Op> copy = new ArrayList<>(ops);
        copy.sort(Comparator.comparingLong(Op::invokeNs).thenComparingLong(Op::id));
        return copy;
    }

    /** The ops of one workload, in invocation order. */
    public List<Op> ops(String workload) {
        return ops().stream().filter(op -> op.workload().equals(workload)).toList();
    }

    /** An invoked operation waiting for its answer. */
    public final class Pending {
        private final long id;
        private final int client;
        private final String workload;
        private final String f;
        private final String key;
        private final Map<String, Long> input;
        private final long invokeNs;

        private Pending(long id, int client, String workload, String f, String key, Map<String, Long> input,
                        long invokeNs) {
            this.id = id;
            this.client = client;
            this.workload = workload;
            this.f = f;
            this.key = key;
            this.input = input;
            this.invokeNs = invokeNs;
        }

        public Op ok(Map<String, Long> output) {
            return finish(Outcome.OK, output, "");
        }

        public Op fail(String error, Map<String, Long> output) {
            return finish(Outcome.FAIL, output, error);
        }

        public Op unknown(String error) {
            return finish(Outcome.UNKNOWN, Map.of(), error);
        }

        private Op finish(Outcome outcome, Map<String, Long> output, String error) {
            Op op = new Op(id, client, workload, f, key, invokeNs, nowNs(), outcome, input, output, error);
            add(op);
            return op;
        }
    }
}
