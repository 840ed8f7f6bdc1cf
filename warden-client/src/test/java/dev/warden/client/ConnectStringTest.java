package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConnectStringTest {
    @Test
    void parsesHostsPortsAndChroot() {
        ConnectString parsed = ConnectString.parse("a:1,b:2, c /app/x");
        assertEquals(List.of(InetSocketAddress.createUnresolved("a", 1), InetSocketAddress.createUnresolved("b", 2),
                InetSocketAddress.createUnresolved("c ", 2181)).size(), parsed.hosts().size());
        assertEquals("a", parsed.hosts().get(0).getHostString());
        assertEquals(2, parsed.hosts().get(1).getPort());
        assertEquals(2181, parsed.hosts().get(2).getPort());
        assertEquals("/app/x", parsed.chroot());
    }

    @Test
    void rootChrootMeansNone() {
        assertEquals("", ConnectString.parse("h:1/").chroot());
        assertEquals("", ConnectString.parse("h:1").chroot());
    }

    @Test
    void parsesIpv6Literals() {
        ConnectString parsed = ConnectString.parse("[::1]:2182,[fe80::1]");
        assertEquals("::1", parsed.hosts().get(0).getHostString());
        assertEquals(2182, parsed.hosts().get(0).getPort());
        assertEquals(2181, parsed.hosts().get(1).getPort());
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> ConnectString.parse(""));
        assertThrows(IllegalArgumentException.class, () -> ConnectString.parse("h:0"));
        assertThrows(IllegalArgumentException.class, () -> ConnectString.parse("h:1/bad/"));
        assertThrows(IllegalArgumentException.class, () -> ConnectString.parse("[::1"));
    }

    @Test
    void aPortThatIsNotANumberOrAMissingHostIsNamedInTheError() {
        IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
                () -> ConnectString.parse("a:1,bad:host:x"));
        assertEquals("bad port 'x' in 'bad:host:x' (1-65535)", notANumber.getMessage());
        assertEquals("bad port '' in 'h:' (1-65535)",
                assertThrows(IllegalArgumentException.class, () -> ConnectString.parse("h:")).getMessage());
        assertEquals("bad port '70000' in '[::1]:70000' (1-65535)",
                assertThrows(IllegalArgumentException.class, () -> ConnectString.parse("[::1]:70000")).getMessage());
        assertEquals("no host name in ':2181'",
                assertThrows(IllegalArgumentException.class, () -> ConnectString.parse(":2181")).getMessage());
    }

    @Test
    void shuffleKeepsEveryHostAndDependsOnTheSeed() {
        ConnectString parsed = ConnectString.parse("a:1,b:1,c:1,d:1,e:1,f:1");
        List<InetSocketAddress> first = parsed.shuffledHosts(new Random(1));
        assertEquals(Set.copyOf(parsed.hosts()), Set.copyOf(first));
        assertEquals(first, parsed.shuffledHosts(new Random(1)));
    }
}
