package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import java.util.List;

/** Judges one workload's part of a run's history. */
public interface Checker {
    String name();

    CheckResult check(List<Op> ops);
}
