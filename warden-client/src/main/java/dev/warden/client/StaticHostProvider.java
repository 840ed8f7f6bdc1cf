package dev.warden.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The default {@link HostProvider}: the servers in a random order, tried round-robin. When the
 * list changes it moves just enough clients, chosen at random, for the clients of the whole
 * ensemble to spread evenly over the new list, as ZooKeeper's client does (the load-balancing
 * rule of Shraer et al., "Dynamic Reconfiguration of Primary/Backup Clusters"):
 *
 * <ul>
 *   <li>Growing from {@code m} to {@code n} servers, a client whose server stays moves with
 *       probability {@code 1 - m/n}, to one of the new servers: every server ends with
 *       {@code 1/n} of the clients.</li>
 *   <li>A client whose server left must move: with probability {@code m(n-k) / (n(m-k))} to a
 *       new server and otherwise to one of the {@code k} servers that stayed, which is what
 *       evens out the load when the list shrinks ({@code n < m}); when it grows, all go to the
 *       new servers.</li>
 * </ul>
 *
 * <p>Each client decides on its own with its own random draw, so no coordination is needed and
 * the spread is even in expectation; {@code StaticHostProviderTest} checks it over 3,000
 * simulated clients.
 *
 * <p>A client that moves tries the server it was sent to and then the other servers of the same
 * kind (new ones, or ones that stayed) for up to {@link #MOVE_WINDOW_MS} before falling back to
 * the whole list: a member that has just joined may still be catching up with its leader and
 * turn clients away for a moment, and a client that gave up on it at once would end where it
 * was and leave the new member without its share.
 */
public final class StaticHostProvider implements HostProvider {
    /** How long a moving client keeps to the servers it was sent among. */
    static final long MOVE_WINDOW_MS = 5_000;

    private final Random random;
    private final LongSupplier nanoTime;
    private List<InetSocketAddress> servers;
    private int cursor;
    /** The servers a moving client tries first, the one it was sent to first; empty when not moving. */
    private List<InetSocketAddress> movePool = List.of();
    private int movePoolCursor;
    private long movePoolUntilNanos;

    public StaticHostProvider(List<InetSocketAddress> servers, Random random) {
        this(servers, random, System::nanoTime);
    }

    StaticHostProvider(List<InetSocketAddress> servers, Random random, LongSupplier nanoTime) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("a host provider needs at least one server");
        }
        this.random = random;
        this.nanoTime = nanoTime;
        this.servers = shuffled(servers);
    }

    /** Servers in the given order, no shuffling (the first is tried first). */
    static StaticHostProvider inGivenOrder(List<InetSocketAddress> servers) {
        StaticHostProvider provider = new StaticHostProvider(servers, new Random(0));
        provider.servers = List.copyOf(servers);
        return provider;
    }

    private List<InetSocketAddress> shuffled(List<InetSocketAddress> list) {
        List<InetSocketAddress> copy = new ArrayList<>(new java.util.LinkedHashSet<>(list));
        Collections.shuffle(copy, random);
        return List.copyOf(copy);
    }

    @Override
    public int size() {
        return servers.size();
    }

    @Override
    public InetSocketAddress next() {
        if (!movePool.isEmpty()) {
            if (nanoTime.getAsLong() - movePoolUntilNanos < 0) {
                return movePool.get(movePoolCursor++ % movePool.size());
            }
            movePool = List.of();
        }
        InetSocketAddress server = servers.get(cursor % servers.size());
        cursor = (cursor + 1) % servers.size();
        return server;
    }

    @Override
    public void onConnected(InetSocketAddress server) {
        // Round-robin goes on from the server after it if the connection drops.
        movePool = List.of();
        int index = servers.indexOf(server);
        if (index >= 0) {
            cursor = (index + 1) % servers.size();
        }
    }

    /** The servers in their current order (for tests and diagnostics). */
    public List<InetSocketAddress> servers() {
        return servers;
    }

    @Override
    public Optional<InetSocketAddress> updateServerList(List<InetSocketAddress> newServers, InetSocketAddress current) {
        if (newServers.isEmpty()) {
            throw new IllegalArgumentException("the new server list is empty");
        }
        List<InetSocketAddress> old = servers;
        List<InetSocketAddress> next = shuffled(newServers);
        Set<InetSocketAddress> oldSet = new HashSet<>(old);
        List<InetSocketAddress> stayed = next.stream().filter(oldSet::contains).toList();
        List<InetSocketAddress> added = next.stream().filter(s -> !oldSet.contains(s)).toList();
        servers = next;
        cursor = 0;
        movePool = List.of();
        if (current == null) {
            return Optional.empty();
        }
        int m = old.size();
        int n = next.size();
        int k = stayed.size();
        InetSocketAddress target;
        if (next.contains(current)) {
            double moveProbability = n > m && !added.isEmpty() ? 1.0 - (double) m / n : 0.0;
            target = random.nextDouble() < moveProbability ? pick(added) : null;
        } else {
            double toNewProbability = added.isEmpty() ? 0.0
                    : stayed.isEmpty() ? 1.0
                    : Math.min(1.0, (double) m * (n - k) / ((double) n * (m - k)));
            target = random.nextDouble() < toNewProbability ? pick(added) : pick(stayed);
        }
        if (target != null) {
            cursor = servers.indexOf(target);
            List<InetSocketAddress> pool = new ArrayList<>(added.contains(target) ? added : stayed);
            pool.remove(target);
            pool.add(0, target);
            movePool = List.copyOf(pool);
            movePoolCursor = 0;
            movePoolUntilNanos = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(MOVE_WINDOW_MS);
        }
        return Optional.ofNullable(target);
    }

    private InetSocketAddress pick(List<InetSocketAddress> from) {
        return from.get(random.nextInt(from.size()));
    }
}
