package dev.warden.chaos.net;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The current state of every directed link between nodes (members 1..n, client groups above
 * them). Unlisted links are clean. Relays read it for every chunk, so a change takes effect at once.
 */
public final class LinkTable {
    public record Link(int from, int to) {
    }

    private final Map<Link, LinkState> states = new ConcurrentHashMap<>();
    /** Told every state after each change (the kernel's firewall rules follow the table). */
    private volatile Consumer<Map<Link, LinkState>> onChange = states -> { };

    /** {@code listener} is told the whole table after every change, on the changing thread. */
    public void onChange(Consumer<Map<Link, LinkState>> listener) {
        this.onChange = listener;
    }

    public LinkState get(int from, int to) {
        return states.getOrDefault(new Link(from, to), LinkState.CLEAN);
    }

    public synchronized void set(int from, int to, LinkState state) {
        LinkState before = state.isClean() ? states.remove(new Link(from, to)) : states.put(new Link(from, to), state);
        if (!state.equals(before == null ? LinkState.CLEAN : before)) {
            onChange.accept(snapshot());
        }
    }

    /**
     * Tells the listener the whole table again, though nothing changed: a change the listener did
     * not finish (the flapping partition's thread interrupted at its heal while it removed a rule)
     * left the table clean and the kernel's rules not, and a heal must make them agree.
     */
    public synchronized void republish() {
        onChange.accept(snapshot());
    }

    /** Every link clean again. */
    public synchronized void healAll() {
        states.clear();
        onChange.accept(snapshot());
    }

    public Map<Link, LinkState> snapshot() {
        return Map.copyOf(states);
    }
}
