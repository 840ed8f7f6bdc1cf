package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes UNKNOWN CAS operations that the acknowledged operations prove took no effect, before
 * the linearizability search: each UNKNOWN op may take effect anywhere after its call, so every
 * one left in doubles the space the search may have to explore. A register's version only ever
 * grows by one per applied CAS, and an UNKNOWN CAS U (expect e, value u) can only be the op that
 * moved the version from e to e+1. It took no effect, in every linearization, when
 * <ul>
 *   <li>an acknowledged op that completed before U was called saw version e+1 or later (a read of
 *       it, or a CAS that produced it): the version was past e before U could apply; or</li>
 *   <li>an acknowledged CAS expected e too (only one op moves e to e+1, and it was that one); or</li>
 *   <li>an acknowledged read saw version e+1 holding a value other than u (values are unique).</li>
 * </ul>
 * Such an op is equivalent to one that never happened, so leaving it out changes no verdict.
 */
public final class IneffectiveCas {
    private IneffectiveCas() {
    }

    /** {@code ops} without the UNKNOWN CAS the acknowledged ops show took no effect. */
    public static List<Op> prune(List<Op> ops) {
        List<Op> acknowledged = ops.stream().filter(Op::ok).toList();
        List<Op> kept = new ArrayList<>(ops.size());
        for (Op op : ops) {
            if (!(op.f().equals("cas") && op.outcome() == Outcome.UNKNOWN && tookNoEffect(op, acknowledged))) {
                kept.add(op);
            }
        }
        return kept;
    }

    private static boolean tookNoEffect(Op unknown, List<Op> acknowledged) {
        long expect = unknown.in("expect");
        long value = unknown.in("value");
        for (Op ok : acknowledged) {
            long version = ok.out("version");
            if (ok.completeNs() < unknown.invokeNs() && version >= expect + 1) {
                return true;
            }
            if (ok.f().equals("cas") && ok.in("expect") == expect) {
                return true;
            }
            if (ok.f().equals("read") && version == expect + 1 && ok.out("value") != value) {
                return true;
            }
        }
        return false;
    }
}
