package dev.warden.cli.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Picks loopback ports that are free right now. The kernel chooses them (bind to port 0), and
 * all sockets of one pick stay open until every port is chosen, so one pick never repeats a
 * port. Another process may still take a port before the member binds it; the window is small
 * because members start right after the pick.
 */
public final class FreePorts {
    private FreePorts() {
    }

    /** {@code count} distinct ports that were free on 127.0.0.1. */
    public static List<Integer> pick(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, was " + count);
        }
        List<ServerSocket> held = new ArrayList<>();
        Set<Integer> ports = new LinkedHashSet<>();
        try {
            while (ports.size() < count) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                ports.add(socket.getLocalPort());
            }
            return List.copyOf(ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free loopback ports", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the port is released either way once the socket object is gone
                }
            }
        }
    }

    /** Client, peer and election ports for {@code members} members, all distinct. */
    public static List<MemberPorts> pickForMembers(int members) {
        List<Integer> ports = pick(3 * members);
        List<MemberPorts> result = new ArrayList<>(members);
        for (int i = 0; i < members; i++) {
            result.add(new MemberPorts(ports.get(3 * i), ports.get(3 * i + 1), ports.get(3 * i + 2)));
        }
        return result;
    }
}
