package dev.warden.bench.resources;

import dev.warden.bench.scale.RawSessions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A child JVM that holds the probe's idle sessions, so that their client side does not land in
 * the heap being measured. Talks to the probe by lines: prints {@code ready}, waits for
 * {@code go}, opens the sessions (raw sockets that only ping), prints {@code opened}, then keeps
 * them until its stdin closes and closes them.
 *
 * <p>Arguments: host port sessionCount.
 */
public final class SessionHolder {
    static final String READY = "ready";
    static final String GO = "go";
    static final String OPENED = "opened";
    private static final int SESSION_TIMEOUT_MS = 30_000;

    private SessionHolder() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: SessionHolder <host> <port> <sessionCount>");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println(READY);
        System.out.flush();
        String line = in.readLine();
        if (!GO.equals(line)) {
            throw new IllegalStateException("expected '" + GO + "' from the probe, got " + line);
        }
        try (RawSessions sessions = RawSessions.open(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                SESSION_TIMEOUT_MS)) {
            System.out.println(OPENED);
            System.out.flush();
            while (in.readLine() != null) {
                // Hold the sessions until the probe closes our stdin.
            }
        }
        System.exit(0);
    }
}
