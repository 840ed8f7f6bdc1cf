package dev.warden.client;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * Chooses the server a client connects to next, and which one it moves to when the server list
 * changes. The client calls it from its I/O thread only, one call at a time, so an
 * implementation needs no locking. {@link StaticHostProvider} is the default; give your own with
 * {@link WardenClientBuilder#hostProvider(HostProvider)}, e.g. to prefer servers in the
 * client's own data centre.
 */
public interface HostProvider {
    /** How many servers there are (the client backs off after trying each once in a row). */
    int size();

    /** The server to try next; called before every connection attempt. */
    InetSocketAddress next();

    /** The client has a session through {@code server} (from the last {@link #next()}). */
    void onConnected(InetSocketAddress server);

    /**
     * The server list changed (see {@link WardenClient#updateServerList}). {@code current} is
     * the server the client is connected to, or null while it is not. Returns the server the
     * client should move to now, or empty to stay; a client that must move disconnects and
     * connects there, keeping its session.
     */
    Optional<InetSocketAddress> updateServerList(List<InetSocketAddress> servers, InetSocketAddress current);
}
