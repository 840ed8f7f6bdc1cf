package dev.warden.server.recovery;

import java.io.IOException;
import java.util.List;

/**
 * A standalone server's data directory does not prove the state it would serve, so it refuses to
 * start. The message names each problem (files, zxids) and the ways out; nothing was changed.
 */
public final class UnprovableStateException extends IOException {
    private final List<String> problems;

    public UnprovableStateException(DataLayout layout, List<String> problems, RecoveryPlan.Recover lastProvable) {
        super(message(layout, problems, lastProvable));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }

    private static String message(DataLayout layout, List<String> problems, RecoveryPlan.Recover lastProvable) {
        StringBuilder text = new StringBuilder("refusing to start: the data in ").append(layout.dataDir());
        if (!layout.dataLogDir().equals(layout.dataDir())) {
            text.append(" and ").append(layout.dataLogDir());
        }
        text.append(" does not prove the state this server would serve:");
        for (String problem : problems) {
            text.append("\n  - ").append(problem);
        }
        text.append("\nWays out (docs/STORAGE.md, \"When a server refuses to start\"):")
                .append("\n  1. restore the missing or damaged files from a backup, then start again;")
                .append("\n  2. or, giving up every write after it, start once with --discard-unprovable: it recovers")
                .append(" to the last provable state (").append(lastProvable.describe())
                .append(") and moves everything after it into *.set-aside-* directories beside the data.");
        return text.toString();
    }
}
