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
 * Picks loopback ports that are free right now, from below the kernel's ephemeral range
 * (32768 and up by default): a port from that range could be taken by a member's outgoing
 * connection to a peer before the member itself binds it. All sockets of one pick stay open
 * until every port is chosen, so one pick never repeats a port. Another process may still
 * take a port before the member binds it; the window is small because members start right
 * after the pick.
 */
public final class FreePorts {
    private static final int LOWEST = 20_000;
    private static final int HIGHEST = 32_000;

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
            java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
            for (int attempt = 0; ports.size() < count; attempt++) {
                if (attempt > 100 * count + 1000) {
                    throw new IOException("not enough free ports between " + LOWEST + " and " + HIGHEST);
                }
                int port = LOWEST + random.nextInt(HIGHEST - LOWEST);
                if (ports.contains(port)) {
                    continue;
                }
                try {
                    held.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
                    ports.add(port);
                } catch (IOException inUse) {
                    // taken: try another
                }
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
        return pickForMembers(members, false);
    }

    /** As above, with an AdminServer port for each member too when {@code withAdminPorts}. */
    public static List<MemberPorts> pickForMembers(int members, boolean withAdminPorts) {
        int perMember = withAdminPorts ? 4 : 3;
        List<Integer> ports = pick(perMember * members);
        List<MemberPorts> result = new ArrayList<>(members);
        for (int i = 0; i < members; i++) {
            int first = perMember * i;
            result.add(new MemberPorts(ports.get(first), ports.get(first + 1), ports.get(first + 2),
                    withAdminPorts ? ports.get(first + 3) : 0));
        }
        return result;
    }
}
