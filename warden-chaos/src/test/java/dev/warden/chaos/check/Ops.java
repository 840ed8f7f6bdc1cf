package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.Map;

/** Hand-written ops for checker tests; times in milliseconds for readability. */
final class Ops {
    private static long nextId;

    private Ops() {
    }

    static Op read(int client, long fromMs, long toMs, long value, long version) {
        return op(client, "read", fromMs, toMs, Outcome.OK, Map.of(), Map.of("value", value, "version", version), "");
    }

    static Op casOk(int client, long fromMs, long toMs, long expect, long value) {
        return op(client, "cas", fromMs, toMs, Outcome.OK, Map.of("expect", expect, "value", value),
                Map.of("version", expect + 1), "");
    }

    static Op casFail(int client, long fromMs, long toMs, long expect, long value) {
        return op(client, "cas", fromMs, toMs, Outcome.FAIL, Map.of("expect", expect, "value", value), Map.of(),
                "BADVERSION");
    }

    static Op casUnknown(int client, long fromMs, long toMs, long expect, long value) {
        return op(client, "cas", fromMs, toMs, Outcome.UNKNOWN, Map.of("expect", expect, "value", value), Map.of(),
                "CONNECTIONLOSS");
    }

    static Op op(int client, String f, long fromMs, long toMs, Outcome outcome, Map<String, Long> in,
                 Map<String, Long> out, String error) {
        return new Op(nextId++, client, "register", f, "k", fromMs * 1_000_000, toMs * 1_000_000, outcome, in, out,
                error);
    }
}
