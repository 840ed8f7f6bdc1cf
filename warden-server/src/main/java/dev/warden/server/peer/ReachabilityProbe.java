package dev.warden.server.peer;

import dev.warden.server.threads.ServerThreads;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * multiAddress.reachabilityCheckEnabled: which of a member's addresses to dial. Each address is
 * probed in turn with {@code InetAddress.isReachable} (an ICMP echo, or without the privilege a
 * TCP connection to port 7, where a refusal still counts as reachable), each probe waiting at
 * most {@code timeoutMs}; the first that answers is dialled, and the first of all when none does
 * (the dial then decides). Probes block, so they run on their own thread, never the I/O thread.
 */
final class ReachabilityProbe implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReachabilityProbe.class);

    private final int timeoutMs;
    private final ExecutorService probes;

    ReachabilityProbe(long myId, int timeoutMs) {
        this.timeoutMs = timeoutMs;
        this.probes = ServerThreads.single("warden-peer-probe-" + myId);
    }

    /**
     * Probes {@code candidates} in order and hands the index of the first reachable one (0 when
     * none is) to {@code chosen}, on the probe thread. Nothing is handed over once closed.
     */
    void firstReachable(List<InetSocketAddress> candidates, IntConsumer chosen) {
        try {
            probes.execute(() -> chosen.accept(firstReachable(candidates)));
        } catch (RejectedExecutionException closed) {
            // the transport is closing: no more dials
        }
    }

    private int firstReachable(List<InetSocketAddress> candidates) {
        for (int i = 0; i < candidates.size(); i++) {
            InetSocketAddress candidate = candidates.get(i);
            if (candidate.getAddress() == null) {
                continue; // the host name did not resolve
            }
            try {
                if (candidate.getAddress().isReachable(timeoutMs)) {
                    return i;
                }
            } catch (IOException unreachable) {
                LOG.debug("Reachability probe of {} failed: {}", candidate, unreachable.toString());
            }
        }
        return 0;
    }

    @Override
    public void close() {
        probes.shutdownNow();
    }
}
