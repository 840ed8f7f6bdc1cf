package dev.warden.server.net;

import dev.warden.server.watch.WatchManager;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Open connections: per-IP counts, the connection bound to each session, paused readers. */
public final class ConnectionRegistry {
    private final int maxPerAddress;
    private final Map<InetAddress, AtomicInteger> countsByAddress = new ConcurrentHashMap<>();
    private final Set<ClientConnection> open = ConcurrentHashMap.newKeySet();
    private final Map<Long, ClientConnection> bySession = new ConcurrentHashMap<>();
    private final Set<ClientConnection> paused = ConcurrentHashMap.newKeySet();

    public ConnectionRegistry(int maxPerAddress) {
        this.maxPerAddress = maxPerAddress;
    }

    /** False if the address already has its maximum number of connections. */
    boolean tryOpen(ClientConnection connection, InetAddress address) {
        AtomicInteger count = countsByAddress.computeIfAbsent(address, a -> new AtomicInteger());
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
            AtomicInteger count = countsByAddress.get(address);
            if (count != null && count.decrementAndGet() <= 0) {
                countsByAddress.remove(address, count);
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
}
