package dev.warden.chaos.net;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The current state of every directed link between nodes (members 1..n, client groups above
 * them). Unlisted links are clean. Relays read it for every chunk, so a change takes effect at once.
 */
public final class LinkTable {
    public record Link(int from, int to) {
    }

    private final Map<Link, LinkState> states = new ConcurrentHashMap<>();

    public LinkState get(int from, int to) {
        return states.getOrDefault(new Link(from, to), LinkState.CLEAN);
    }

    public void set(int from, int to, LinkState state) {
        if (state.isClean()) {
            states.remove(new Link(from, to));
        } else {
            states.put(new Link(from, to), state);
        }
    }

    /** Every link clean again. */
    public void healAll() {
        states.clear();
    }

    public Map<Link, LinkState> snapshot() {
        return Map.copyOf(states);
    }
}
