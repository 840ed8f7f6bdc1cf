package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.Optional;

/**
 * A sequential specification: the state an object starts in and what each operation does to it.
 * States are values (equals and hashCode by content): the linearizability search caches them.
 */
public interface Model<S> {
    S initial();

    /**
     * The state after {@code op} takes effect in {@code state}, or empty if {@code op}, with the
     * result it recorded, is impossible in that state. An UNKNOWN op has no recorded result: the
     * model applies it as if it succeeded whenever it could have.
     */
    Optional<S> step(S state, Op op);
}
