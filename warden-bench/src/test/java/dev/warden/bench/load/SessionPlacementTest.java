package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sessions spread evenly over the servers, each with the others as fail-over. */
class SessionPlacementTest {
    @Test
    void sessionIGetsServerIModNFirstAndKeepsTheChroot() {
        String three = "a:1,b:2,c:3/app";
        assertEquals("a:1,b:2,c:3/app", SessionPlacement.homeFirst(three, 0));
        assertEquals("b:2,c:3,a:1/app", SessionPlacement.homeFirst(three, 1));
        assertEquals("c:3,a:1,b:2/app", SessionPlacement.homeFirst(three, 2));
        assertEquals("a:1,b:2,c:3/app", SessionPlacement.homeFirst(three, 3));
        assertEquals("a:1", SessionPlacement.homeFirst("a:1", 7));
        assertThrows(IllegalArgumentException.class, () -> SessionPlacement.homeFirst(three, -1));
    }

    @Test
    void theApacheHostProviderTriesTheHomeFirstThenTheOthersInOrder() {
        InOrderHostProvider hosts = new InOrderHostProvider(List.of(InetSocketAddress.createUnresolved("127.0.0.1", 1),
                InetSocketAddress.createUnresolved("127.0.0.1", 2), InetSocketAddress.createUnresolved("127.0.0.1", 3)));
        assertEquals(3, hosts.size());
        assertEquals(1, hosts.next(0).getPort());
        assertEquals(2, hosts.next(0).getPort());
        hosts.onConnected(); // connected to 2; after a loss it starts again at home
        assertEquals(1, hosts.next(0).getPort());
        assertEquals(2, hosts.next(0).getPort());
        assertEquals(3, hosts.next(0).getPort());
        InetSocketAddress again = hosts.next(0);
        assertEquals(1, again.getPort());
        assertEquals(false, again.isUnresolved());
    }
}
