package dev.warden.chaos.history;

import java.util.Map;
import java.util.Objects;

/**
 * One completed client operation: who ran it, what it asked, when it was invoked and when its
 * answer came (monotonic nanoseconds from the run's start; an UNKNOWN op's answer never came, so
 * its {@code completeNs} is when the client gave up), and what it returned.
 *
 * @param id         unique within the run, in invocation order
 * @param client     the client (one session at a time) that ran it
 * @param workload   which workload it belongs to ("register", "set", ...)
 * @param f          the operation ("read", "cas", "create", ...)
 * @param key        the key or node it touched, may be empty
 * @param input      what it asked, by name (e.g. expect=3, value=17)
 * @param output     what it returned, by name (e.g. version=4); empty unless OK or FAIL says more
 * @param error      the error name of a FAIL or UNKNOWN (BADVERSION, CONNECTIONLOSS, ...), else empty
 */
public record Op(long id, int client, String workload, String f, String key, long invokeNs, long completeNs,
                 Outcome outcome, Map<String, Long> input, Map<String, Long> output, String error) {
    public Op {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(outcome, "outcome");
        input = Map.copyOf(input);
        output = Map.copyOf(output);
        error = error == null ? "" : error;
        if (completeNs < invokeNs) {
            throw new IllegalArgumentException("op " + id + " completes at " + completeNs + " ns, before its invoke at "
                    + invokeNs + " ns");
        }
    }

    public long in(String name) {
        Long value = input.get(name);
        if (value == null) {
            throw new IllegalStateException("op " + id + " (" + f + ") has no input " + name + ": " + input);
        }
        return value;
    }

    public long out(String name) {
        Long value = output.get(name);
        if (value == null) {
            throw new IllegalStateException("op " + id + " (" + f + ") has no output " + name + ": " + output);
        }
        return value;
    }

    public boolean ok() {
        return outcome == Outcome.OK;
    }

    /** One line for reports: id, client, times in ms, the call and its result. */
    public String describe() {
        return String.format("#%d c%d %s %s(%s %s) [%.3f..%.3f s] -> %s %s %s", id, client, workload, f, key, input,
                invokeNs / 1e9, completeNs / 1e9, outcome, output, error).trim();
    }
}
