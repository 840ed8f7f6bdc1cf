package dev.warden.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While the session is read-only, asks the other servers in turn, at growing intervals, whether
 * one serves read-write; the read-only connection is then closed and the next attempt goes to
 * the server found. Confined to the event loop.
 */
final class ReadWriteSearch {
    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);
    /** A read-only client first asks for a read-write server after this, then at doubling intervals. */
    private static final long FIRST_RW_PROBE_DELAY_MS = 100;
    /** The longest interval between asks for a read-write server (ZooKeeper's client waits up to a minute). */
    private static final long MAX_RW_PROBE_DELAY_MS = 60_000;

    private final EventLoop loop;
    private final HostProvider hosts;
    private final int connectTimeoutMs;
    /** Whether the session on a connection is still the read-only one being served. */
    private final Predicate<Channel> stillReadOnly;
    private long rwProbeDelayMs = FIRST_RW_PROBE_DELAY_MS;
    /** A server that answered it serves read-write: the next attempt goes there. */
    private InetSocketAddress readWriteServer;

    ReadWriteSearch(EventLoop loop, HostProvider hosts, int connectTimeoutMs, Predicate<Channel> stillReadOnly) {
        this.loop = loop;
        this.hosts = hosts;
        this.connectTimeoutMs = connectTimeoutMs;
        this.stillReadOnly = stillReadOnly;
    }

    /** A read-only session began on {@code connection} to {@code server}: start asking. */
    void start(Channel connection, InetSocketAddress server) {
        rwProbeDelayMs = FIRST_RW_PROBE_DELAY_MS;
        scheduleReadWriteProbe(connection, server);
    }

    /** The read-write server found, if any, forgotten once taken. */
    InetSocketAddress takeFound() {
        InetSocketAddress found = readWriteServer;
        readWriteServer = null;
        return found;
    }

    /** Asks the next server whether it serves read-write, after a growing delay. */
    private void scheduleReadWriteProbe(Channel connection, InetSocketAddress server) {
        long delayMs = rwProbeDelayMs;
        rwProbeDelayMs = Math.min(MAX_RW_PROBE_DELAY_MS, rwProbeDelayMs * 2);
        loop.schedule(() -> probeForReadWrite(connection, server), delayMs, TimeUnit.MILLISECONDS);
    }

    private void probeForReadWrite(Channel connection, InetSocketAddress server) {
        if (!stillReadOnly.test(connection)) {
            return;
        }
        InetSocketAddress candidate = hosts.next();
        if (candidate.equals(server)) {
            scheduleReadWriteProbe(connection, server);
            return;
        }
        ReadWriteProbe.servesReadWrite(candidate, connectTimeoutMs).thenAccept(readWrite -> loop.execute(() -> {
            if (!stillReadOnly.test(connection)) {
                return;
            }
            if (readWrite) {
                LOG.info("{} serves read-write: leaving the read-only session on {}", candidate, server);
                readWriteServer = candidate;
                connection.close();
            } else {
                scheduleReadWriteProbe(connection, server);
            }
        }));
    }
}
