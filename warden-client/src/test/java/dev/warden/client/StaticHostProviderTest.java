package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 3,000 simulated clients, each with its own provider and random draw, must end evenly spread
 * over a changed server list, moving no more of them than that needs.
 */
class StaticHostProviderTest {
    private static final int CLIENTS = 3000;

    private static List<InetSocketAddress> servers(int... ports) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (int port : ports) {
            out.add(InetSocketAddress.createUnresolved("127.0.0.1", port));
        }
        return out;
    }

    /** Each client connects to its provider's first choice; returns the providers and their servers. */
    private static List<Object[]> connectAll(List<InetSocketAddress> list) {
        List<Object[]> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            StaticHostProvider provider = new StaticHostProvider(list, new Random(i));
            InetSocketAddress server = provider.next();
            provider.onConnected(server);
            clients.add(new Object[] {provider, server});
        }
        return clients;
    }

    /** Applies the new list to every client; returns how many moved, and leaves the new servers in place. */
    private static int update(List<Object[]> clients, List<InetSocketAddress> newList) {
        int moved = 0;
        for (Object[] client : clients) {
            StaticHostProvider provider = (StaticHostProvider) client[0];
            var target = provider.updateServerList(newList, (InetSocketAddress) client[1]);
            if (target.isPresent()) {
                moved++;
                client[1] = target.get();
                assertEquals(target.get(), provider.next(), "the next attempt goes where it was told to move");
            }
            assertTrue(newList.contains((InetSocketAddress) client[1]), "a client ends on a listed server");
        }
        return moved;
    }

    private static void assertEven(List<Object[]> clients, List<InetSocketAddress> list) {
        Map<InetSocketAddress, Integer> load = new HashMap<>();
        for (Object[] client : clients) {
            load.merge((InetSocketAddress) client[1], 1, Integer::sum);
        }
        double expected = (double) CLIENTS / list.size();
        for (InetSocketAddress server : list) {
            int count = load.getOrDefault(server, 0);
            assertTrue(Math.abs(count - expected) < expected * 0.12, server + " has " + count + ", expected about "
                    + expected + ": " + load);
        }
    }

    @Test
    void growingMovesAboutOneMinusOldOverNewToTheNewServers() {
        List<Object[]> clients = connectAll(servers(1, 2, 3));
        assertEven(clients, servers(1, 2, 3));
        int moved = update(clients, servers(1, 2, 3, 4, 5));
        assertEven(clients, servers(1, 2, 3, 4, 5));
        // 1 - 3/5 of the clients must move; about 1,200.
        assertTrue(Math.abs(moved - 1200) < 150, "moved " + moved);
    }

    @Test
    void shrinkingMovesOnlyTheClientsOfRemovedServers() {
        List<Object[]> clients = connectAll(servers(1, 2, 3, 4, 5));
        int onRemoved = (int) clients.stream().filter(c -> ((InetSocketAddress) c[1]).getPort() > 3).count();
        int moved = update(clients, servers(1, 2, 3));
        assertEquals(onRemoved, moved);
        assertEven(clients, servers(1, 2, 3));
    }

    @Test
    void replacingOneServerSendsItsClientsToTheNewOne() {
        List<Object[]> clients = connectAll(servers(1, 2, 3));
        int onRemoved = (int) clients.stream().filter(c -> ((InetSocketAddress) c[1]).getPort() == 3).count();
        int moved = update(clients, servers(1, 2, 4));
        assertEquals(onRemoved, moved);
        assertEven(clients, servers(1, 2, 4));
        long onNew = clients.stream().filter(c -> ((InetSocketAddress) c[1]).getPort() == 4).count();
        assertEquals(onRemoved, onNew);
    }

    @Test
    void anUnchangedListMovesNobody() {
        List<Object[]> clients = connectAll(servers(1, 2, 3));
        assertEquals(0, update(clients, servers(3, 2, 1)));
    }

    /**
     * A client sent to a new server that turns it away (still catching up with its leader) tries
     * the new servers only, the one it was sent to first, until the move window ends; then any.
     */
    @Test
    void aMovingClientKeepsToTheNewServersForTheMoveWindow() {
        List<InetSocketAddress> three = servers(1, 2, 3);
        List<InetSocketAddress> five = servers(1, 2, 3, 4, 5);
        long[] nowNs = {0};
        for (int seed = 0; seed < 200; seed++) {
            StaticHostProvider provider = new StaticHostProvider(three, new Random(seed), () -> nowNs[0]);
            InetSocketAddress home = provider.next();
            provider.onConnected(home);
            var target = provider.updateServerList(five, home);
            if (target.isEmpty()) {
                continue;
            }
            nowNs[0] = 0;
            assertEquals(target.get(), provider.next());
            for (int attempt = 0; attempt < 10; attempt++) {
                int port = provider.next().getPort();
                assertTrue(port == 4 || port == 5, "attempt " + attempt + " went to old server " + port);
            }
            nowNs[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(StaticHostProvider.MOVE_WINDOW_MS);
            java.util.Set<Integer> after = new java.util.TreeSet<>();
            for (int attempt = 0; attempt < 5; attempt++) {
                after.add(provider.next().getPort());
            }
            assertEquals(java.util.Set.of(1, 2, 3, 4, 5), after, "after the window every server is tried");
            return;
        }
        throw new AssertionError("no client of 200 moved when the list grew from 3 to 5");
    }
}
