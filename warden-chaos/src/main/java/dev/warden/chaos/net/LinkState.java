package dev.warden.chaos.net;

/**
 * How one direction between two nodes behaves now.
 *
 * @param blocked  nothing is delivered (held, as a dropped packet is retransmitted later; the
 *                 connection stays open, so only the endpoints' own timeouts notice)
 * @param delayMs  every chunk arrives this much later
 * @param jitterMs plus up to this much more, at random (order within a connection is kept, as TCP keeps it)
 * @param lossRate chance that a chunk is "lost" and arrives after a retransmission timeout (200–1000 ms)
 */
public record LinkState(boolean blocked, long delayMs, long jitterMs, double lossRate) {
    public static final LinkState CLEAN = new LinkState(false, 0, 0, 0);

    public LinkState {
        if (delayMs < 0 || jitterMs < 0 || lossRate < 0 || lossRate > 1) {
            throw new IllegalArgumentException("delay, jitter >= 0 and loss in [0,1], were " + delayMs + ", " + jitterMs
                    + ", " + lossRate);
        }
    }

    public boolean isClean() {
        return !blocked && delayMs == 0 && jitterMs == 0 && lossRate == 0;
    }
}
