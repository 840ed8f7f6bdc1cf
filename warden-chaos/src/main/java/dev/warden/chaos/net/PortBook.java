package dev.warden.chaos.net;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Every port a run's network has handed out. A port that is free right now may still belong to a
 * member that is down (killed, or between restarts); a relay created then must not take it, or the
 * member cannot bind its own port when it comes back.
 */
final class PortBook {
    private final IntFunction<List<Integer>> freeNow;
    private final Set<Integer> handedOut = new HashSet<>();

    /** @param freeNow picks that many distinct ports that are free at the moment */
    PortBook(IntFunction<List<Integer>> freeNow) {
        this.freeNow = freeNow;
    }

    synchronized void reserve(List<Integer> ports) {
        handedOut.addAll(ports);
    }

    /** {@code count} ports free now and never handed out before; handed out from now on. */
    synchronized List<Integer> take(int count) {
        List<Integer> chosen = new ArrayList<>();
        for (int attempt = 0; chosen.size() < count; attempt++) {
            if (attempt > 1_000) {
                throw new IllegalStateException("no " + count + " free ports that this run has not handed out already");
            }
            for (int port : freeNow.apply(count - chosen.size())) {
                if (handedOut.add(port)) {
                    chosen.add(port);
                }
            }
        }
        return chosen;
    }
}
