package dev.warden.bench.load;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.client.HostProvider;

/**
 * An Apache ZooKeeper client host provider that tries the hosts in the connect string's order,
 * starting over after a connection: the first host is the session's home
 * ({@link SessionPlacement}). Like the client's own provider, it pauses {@code spinDelay} once it
 * has tried every host without connecting.
 */
final class InOrderHostProvider implements HostProvider {
    private final List<InetSocketAddress> hosts;
    private int next;
    private int triedSinceConnected;

    InOrderHostProvider(List<InetSocketAddress> hosts) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no hosts");
        }
        this.hosts = List.copyOf(hosts);
    }

    @Override
    public int size() {
        return hosts.size();
    }

    @Override
    public InetSocketAddress next(long spinDelayMs) {
        if (triedSinceConnected >= hosts.size() && spinDelayMs > 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(spinDelayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        triedSinceConnected++;
        InetSocketAddress host = hosts.get(next);
        next = (next + 1) % hosts.size();
        return host.isUnresolved() ? new InetSocketAddress(host.getHostString(), host.getPort()) : host;
    }

    /** Connected: the next loss of connection starts over at the home host. */
    @Override
    public void onConnected() {
        next = 0;
        triedSinceConnected = 0;
    }

    /** Reconfiguration is not used by the benchmark; the list stays as given. */
    @Override
    public boolean updateServerList(Collection<InetSocketAddress> serverAddresses, InetSocketAddress current) {
        return false;
    }
}
