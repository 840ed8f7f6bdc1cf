package dev.warden.bench.resources;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A child JVM that holds the probe's watches, so the client's own bookkeeping of 1M watches
 * does not land in the heap being measured. Talks to the probe by lines: prints
 * {@code connected}, waits for {@code go}, sets the watches, prints {@code watched}, then keeps
 * the session (and with it the watches) until its stdin closes.
 *
 * <p>Arguments: connectString watchCount maxInFlight.
 */
public final class WatchHolder {
    static final String CONNECTED = "connected";
    static final String GO = "go";
    static final String WATCHED = "watched";

    private WatchHolder() {
    }

    public static void main(String[] args) throws Exception {
        dev.warden.cli.ToolLogging.quiet(dev.warden.bench.BenchMain.APACHE_CLIENT_LEVELS);
        if (args.length != 3) {
            System.err.println("usage: WatchHolder <connectString> <watchCount> <maxInFlight>");
            System.exit(2);
        }
        int watchCount = Integer.parseInt(args[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (ZnodeLoader loader = ZnodeLoader.connect(args[0], Integer.parseInt(args[2]))) {
            System.out.println(CONNECTED);
            System.out.flush();
            String line = in.readLine();
            if (!GO.equals(line)) {
                throw new IllegalStateException("expected '" + GO + "' from the probe, got " + line);
            }
            loader.watchTree(watchCount);
            System.out.println(WATCHED);
            System.out.flush();
            while (in.readLine() != null) {
                // Hold the session until the probe closes our stdin.
            }
        }
    }
}
