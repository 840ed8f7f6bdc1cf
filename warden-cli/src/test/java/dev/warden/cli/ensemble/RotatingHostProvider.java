package dev.warden.cli.ensemble;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import org.apache.zookeeper.client.HostProvider;

/**
 * Tries the members in a fixed order starting from a chosen one, so the test decides which
 * member each load session starts on (the stock provider shuffles). After a full round without a
 * connection it waits the client's spin delay, so a cluster with no quorum is not hammered.
 */
final class RotatingHostProvider implements HostProvider {
    private final List<InetSocketAddress> members;
    private int index;
    private int triedSinceConnected;

    RotatingHostProvider(List<InetSocketAddress> members, int firstIndex) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("no members to connect to");
        }
        this.members = List.copyOf(members);
        // next() advances before returning, so start just before the first choice
        this.index = Math.floorMod(firstIndex - 1, members.size());
    }

    @Override
    public synchronized int size() {
        return members.size();
    }

    @Override
    public synchronized InetSocketAddress next(long spinDelayMs) {
        if (triedSinceConnected >= members.size() && spinDelayMs > 0) {
            try {
                Thread.sleep(spinDelayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            triedSinceConnected = 0;
        }
        index = (index + 1) % members.size();
        triedSinceConnected++;
        return members.get(index);
    }

    @Override
    public synchronized void onConnected() {
        triedSinceConnected = 0;
    }

    /** The member list is fixed for a test; reconfiguration is not under test here. */
    @Override
    public boolean updateServerList(Collection<InetSocketAddress> serverAddresses, InetSocketAddress currentHost) {
        return false;
    }
}
