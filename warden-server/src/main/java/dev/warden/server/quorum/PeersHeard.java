package dev.warden.server.quorum;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each peer was last heard from, on the driver's clock, for the leader's admin figures.
 * The driver thread records; any thread may ask.
 */
final class PeersHeard {
    private final Map<Long, Long> lastHeardMs = new ConcurrentHashMap<>();
    private volatile long nowMs;

    /** The driver's clock reading for the cycle now running. */
    void cycleAt(long cycleMs) {
        nowMs = cycleMs;
    }

    void heardFrom(long peerId) {
        lastHeardMs.put(peerId, nowMs);
    }

    /** Peers heard from within the last {@code windowMs}. */
    Set<Long> within(long windowMs) {
        long since = nowMs - windowMs;
        Set<Long> heard = new TreeSet<>();
        lastHeardMs.forEach((id, atMs) -> {
            if (atMs >= since) {
                heard.add(id);
            }
        });
        return heard;
    }
}
