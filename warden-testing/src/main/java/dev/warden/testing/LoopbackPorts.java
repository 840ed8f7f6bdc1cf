package dev.warden.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports on 127.0.0.1 for the servers this module starts. They are picked below the
 * kernel's ephemeral range (32768 and up by default), where any outgoing connection could take
 * a port between the pick and the bind, and each is handed out at most once per JVM, so the
 * ports of one ensemble never collide although none is bound when the next is picked.
 */
final class LoopbackPorts {
    private static final int LOWEST = 20_000;
    private static final int HIGHEST = 32_000;
    private static final int ATTEMPTS = 5_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private LoopbackPorts() {
    }

    static int pick() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = LOWEST + random.nextInt(HIGHEST - LOWEST);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException inUse) {
                // taken by another process: try another
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + LOWEST + " and " + HIGHEST);
    }
}
