package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.Id;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-address counts and the address identity the connections of one address share. */
class ConnectionRegistryTest {
    private final ServerContext server = new ServerContext(null, null, null, null, null, null, null, null);

    @Test
    void connectionsOfOneAddressShareTheirAddressIdentityAndCount() throws Exception {
        ConnectionRegistry registry = new ConnectionRegistry(2);
        InetAddress client = InetAddress.getByName("10.0.0.7");
        InetAddress other = InetAddress.getByName("10.0.0.8");
        List<Id> identity = registry.addressIdentity(client);
        assertEquals(List.of(new Id("ip", "10.0.0.7")), identity);
        ClientConnection a = new ClientConnection(server, null);
        ClientConnection b = new ClientConnection(server, null);
        assertTrue(registry.tryOpen(a, client));
        assertSame(identity, registry.addressIdentity(client));
        assertTrue(registry.tryOpen(b, client));
        assertFalse(registry.tryOpen(new ClientConnection(server, null), client), "maxClientCnxns 2 reached");
        assertNotSame(identity, registry.addressIdentity(other));
        registry.closed(a, client);
        registry.closed(b, client);
        assertEquals(0, registry.size());
        assertTrue(registry.tryOpen(a, client), "the address's count started again");
    }
}
