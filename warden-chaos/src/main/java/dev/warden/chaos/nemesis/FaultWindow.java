package dev.warden.chaos.nemesis;

import java.util.List;

/**
 * One fault as it happened: when it began and was healed (run time, ns), what exactly was done,
 * and how the ensemble came back.
 *
 * @param wholeAgainNs when every member served again with one leader after the heal, or -1 if not within the wait
 */
public record FaultWindow(int index, FaultKind kind, String detail, long startNs, long healNs, long wholeAgainNs,
                          List<String> notes) {
    public FaultWindow {
        notes = List.copyOf(notes);
    }
}
