package dev.warden.chaos.nemesis;

import java.util.List;

/** One fault instance: done at the start of its window, undone at its heal. */
interface Fault {
    /** Injects the fault; returns exactly what was done, for the log. */
    String apply() throws Exception;

    /** Undoes it; returns notes on how that went (a member that would not start, say). */
    List<String> heal() throws Exception;
}
