package dev.warden.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the servers a test starts. They come from below the kernel's ephemeral range
 * (32768 and up by default), because a port picked there can be taken by any outgoing
 * connection (a member dialling its peers, a client) between the pick and the bind. A port is
 * handed out at most once per test JVM: two picks for the same ensemble must never collide,
 * even though the first one is not bound yet when the second is made.
 */
public final class FreePorts {
    private static final int LOWEST = 20_000;
    private static final int HIGHEST = 32_000;

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** A port that was free on 127.0.0.1 a moment ago. */
    public static int pick() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 5_000; attempt++) {
            int port = LOWEST + random.nextInt(HIGHEST - LOWEST);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException inUse) {
                // taken: try another
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + HIGHEST);
    }
}
