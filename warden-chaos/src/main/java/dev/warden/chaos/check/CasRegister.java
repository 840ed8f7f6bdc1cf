package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.Optional;

/**
 * A znode used as a compare-and-set register: its data (a number) and its data version. Ops:
 * {@code read} (output value, version), {@code cas} (input expect, value; an OK returns the new
 * version; a FAIL is BADVERSION, which says the version was not {@code expect}).
 */
public final class CasRegister implements Model<CasRegister.State> {
    public record State(long value, long version) {
    }

    private final State initial;

    public CasRegister(long initialValue, long initialVersion) {
        this.initial = new State(initialValue, initialVersion);
    }

    @Override
    public State initial() {
        return initial;
    }

    @Override
    public Optional<State> step(State state, Op op) {
        return switch (op.f()) {
            case "read" -> readStep(state, op);
            case "cas" -> casStep(state, op);
            default -> throw new IllegalArgumentException("a CAS register has no operation " + op.f() + ": "
                    + op.describe());
        };
    }

    private static Optional<State> readStep(State state, Op op) {
        if (op.outcome() != Outcome.OK) {
            // a read that failed observed nothing; the checker leaves such reads out
            return Optional.of(state);
        }
        boolean same = state.value() == op.out("value") && state.version() == op.out("version");
        return same ? Optional.of(state) : Optional.empty();
    }

    private static Optional<State> casStep(State state, Op op) {
        long expect = op.in("expect");
        boolean matches = state.version() == expect;
        return switch (op.outcome()) {
            case OK -> matches && op.out("version") == expect + 1
                    ? Optional.of(new State(op.in("value"), expect + 1)) : Optional.empty();
            case FAIL -> matches ? Optional.empty() : Optional.of(state);
            case UNKNOWN -> Optional.of(matches ? new State(op.in("value"), expect + 1) : state);
        };
    }
}
