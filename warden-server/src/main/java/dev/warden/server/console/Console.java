package dev.warden.server.console;

import dev.warden.server.net.ServerContext;
import io.netty.channel.ChannelHandler;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The web console on the AdminServer's port, at {@code /console}: its page and JSON API, the
 * logins, the threads that answer API calls (off the admin event loop, since a write waits
 * for its fsync and the ensemble view for other members), and the once-a-second tick of the
 * latency chart's window.
 */
public final class Console implements AutoCloseable {
    /** The path the console is served under. */
    public static final String PATH = "/console";
    /** Largest request body the console reads (a node's data is at most jute.maxbuffer, sent as base64). */
    final int maxBodyBytes;

    private final ConsoleApi api;
    private final ConsoleResources resources = new ConsoleResources();
    private final ExecutorService workers;
    private final ExecutorService probes;
    private final ScheduledExecutorService ticker;

    public Console(ServerContext server) {
        this.workers = Executors.newFixedThreadPool(2, dev.warden.server.threads.ServerThreads.factory("warden-console"));
        this.probes = Executors.newCachedThreadPool(dev.warden.server.threads.ServerThreads.factory("warden-console-probe"));
        this.ticker = Executors.newSingleThreadScheduledExecutor(dev.warden.server.threads.ServerThreads.factory("warden-console-ticker"));
        LatencyWindow latencies = LatencyWindow.of(server.stats());
        ticker.scheduleAtFixedRate(latencies::tick, 0, 1, TimeUnit.SECONDS);
        this.api = new ConsoleApi(server, new ConsoleLogins(server.config(), () -> server.clock().wallTimeMs()),
                probes, latencies);
        // base64 makes 4 bytes of 3, form encoding up to 3 of 1 for '+', '/' and '='
        this.maxBodyBytes = (int) Math.min(Integer.MAX_VALUE - 8, 4L * server.config().juteMaxBuffer() + 64 * 1024);
    }

    /** A new handler for one admin connection, to sit before the admin commands' handler. */
    public ChannelHandler newHandler() {
        return new ConsoleHttpHandler(this);
    }

    ConsoleApi api() {
        return api;
    }

    ConsoleResources resources() {
        return resources;
    }

    ExecutorService workers() {
        return workers;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        workers.shutdownNow();
        probes.shutdownNow();
        try {
            workers.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
