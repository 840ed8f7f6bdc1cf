package dev.warden.server.net;

import dev.warden.protocol.Id;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.watch.WatchManager;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open connections: per-IP counts, the identity the connections of one address start with, the
 * connection bound to each session, paused readers.
 */
public final class ConnectionRegistry {
    private final int maxPerAddress;
    private final Map<InetAddress, AddressConnections> byAddress = new ConcurrentHashMap<>();
    private final Set<ClientConnection> open = ConcurrentHashMap.newKeySet();
    private final Map<Long, ClientConnection> bySession = new ConcurrentHashMap<>();
    private final Set<ClientConnection> paused = ConcurrentHashMap.newKeySet();

    public ConnectionRegistry(int maxPerAddress) {
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * The identity list ({@code ip:<address>}) a connection from {@code address} starts with,
     * one list shared by the address's connections: the address string, its Id and the list
     * cost about 100 bytes on every connection when each makes its own.
     */
    List<Id> addressIdentity(InetAddress address) {
        return byAddress.computeIfAbsent(address, AddressConnections::new).identity;
    }

    /** False if the address already has its maximum number of connections. */
    boolean tryOpen(ClientConnection connection, InetAddress address) {
        AtomicInteger count = byAddress.computeIfAbsent(address, AddressConnections::new).count;
        if (maxPerAddress > 0 && count.incrementAndGet() > maxPerAddress) {
            count.decrementAndGet();
            return false;
        }
        if (maxPerAddress <= 0) {
            count.incrementAndGet();
        }
        open.add(connection);
        return true;
    }

    void closed(ClientConnection connection, InetAddress address) {
        if (open.remove(connection)) {
            AddressConnections connections = byAddress.get(address);
            if (connections != null && connections.count.decrementAndGet() <= 0) {
                byAddress.remove(address, connections);
            }
        }
        paused.remove(connection);
        long sessionId = connection.sessionId();
        if (sessionId != 0) {
            bySession.remove(sessionId, connection);
        }
    }

    /** Binds a session to a connection; returns the connection it was bound to before, if any. */
    ClientConnection bind(long sessionId, ClientConnection connection) {
        ClientConnection previous = bySession.put(sessionId, connection);
        return previous == connection ? null : previous;
    }

    ClientConnection connectionOf(long sessionId) {
        return bySession.get(sessionId);
    }

    void pause(ClientConnection connection) {
        paused.add(connection);
    }

    /** Resumes every paused connection. */
    public void resumeAll() {
        for (ClientConnection connection : new ArrayList<>(paused)) {
            paused.remove(connection);
            connection.resumeReading();
        }
    }

    /** A session ended through the log: close its connection if it still has one. */
    public void sessionClosed(long sessionId) {
        ClientConnection connection = bySession.remove(sessionId);
        if (connection != null) {
            connection.closeAfterFlush();
        }
    }

    public List<ClientConnection> connections() {
        return new ArrayList<>(open);
    }

    public int size() {
        return open.size();
    }

    /** Closes the connections of read-only sessions (the member left read-only mode). */
    public void closeReadOnly() {
        for (ClientConnection connection : connections()) {
            if (connection.readOnlySession()) {
                connection.closeNow();
            }
        }
    }

    /**
     * After a restore: drops every connection's watches at once (so no event about the restored
     * state reaches a connection that watched the old one) and closes it once its queued replies
     * are out.
     */
    public void closeAllAfterRestore(WatchManager watches) {
        for (ClientConnection connection : connections()) {
            watches.removeWatcher(connection);
            connection.closeAfterFlush();
        }
        bySession.clear();
    }

    public void closeAll() {
        for (ClientConnection connection : connections()) {
            connection.closeNow();
        }
    }

    /** One client address: its open connections and the identity list they share. */
    private static final class AddressConnections {
        final AtomicInteger count = new AtomicInteger();
        final List<Id> identity;

        AddressConnections(InetAddress address) {
            identity = AuthIdentities.addressIdentity(address.getHostAddress());
        }
    }
}
