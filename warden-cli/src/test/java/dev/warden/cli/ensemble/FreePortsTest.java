package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.cli.cluster.FreePorts;
import dev.warden.cli.cluster.MemberPorts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    @Test
    void pickedPortsAreDistinctAndBindable() throws Exception {
        List<Integer> ports = FreePorts.pick(12);
        assertEquals(12, new HashSet<>(ports).size());
        for (int port : ports) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(port, socket.getLocalPort());
            }
        }
    }

    @Test
    void memberPortsAreDistinctAcrossMembers() {
        List<MemberPorts> members = FreePorts.pickForMembers(5);
        Set<Integer> all = new HashSet<>();
        for (MemberPorts p : members) {
            all.add(p.clientPort());
            all.add(p.peerPort());
            all.add(p.electionPort());
        }
        assertEquals(15, all.size());
    }

    @Test
    void zeroPortsIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> FreePorts.pick(0));
    }
}
