package dev.warden.bench.load;

import java.io.IOException;

/**
 * Which client library generates the load. Apache's is the default: it is neutral to both servers.
 *
 * <p>The Apache client comes with two socket implementations ({@code zookeeper.clientCnxnSocket}).
 * The load runs over its Netty socket by default: the NIO socket reads every reply with two
 * {@code read} calls (the length, then the body) and costs about 2.5 times the CPU per operation
 * (docs/PERFORMANCE.md, "The load client's socket"). On a machine where the client shares the
 * cores with the servers, that CPU is taken from the servers, and the run measures the client.
 */
public enum ClientKind {
    /** The Apache ZooKeeper Java client over its Netty socket. */
    APACHE("Apache ZooKeeper Java client (Netty socket)"),
    /** The Apache ZooKeeper Java client over its NIO socket, the client's own default. */
    APACHE_NIO("Apache ZooKeeper Java client (NIO socket)"),
    /** Warden's own client. */
    WARDEN("Warden client");

    private final String description;

    ClientKind(String description) {
        this.description = description;
    }

    /** What a report calls this client. */
    public String description() {
        return description;
    }

    /** Opens one session on a server the client picks (shuffled, as clients do) and returns once it is connected. */
    public LoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes)
            throws IOException, InterruptedException {
        return connect(connectString, sessionTimeoutMs, maxFrameBytes, LoadClientTls.NONE);
    }

    /** As {@link #connect(String, int, int)}, in plaintext or over TLS as {@code tls} says. */
    public LoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes, LoadClientTls tls)
            throws IOException, InterruptedException {
        return open(connectString, sessionTimeoutMs, maxFrameBytes, false, tls);
    }

    /**
     * Opens session number {@code sessionIndex} of a run on its home server ({@link SessionPlacement}:
     * server index mod n of the connect string, the others as fail-over) and returns once it is connected.
     */
    public LoadClient connectPlaced(String connectString, int sessionIndex, int sessionTimeoutMs, int maxFrameBytes,
                                    LoadClientTls tls) throws IOException, InterruptedException {
        return open(SessionPlacement.homeFirst(connectString, sessionIndex), sessionTimeoutMs, maxFrameBytes, true,
                tls);
    }

    private LoadClient open(String connectString, int sessionTimeoutMs, int maxFrameBytes, boolean hostsInGivenOrder,
                            LoadClientTls tls) throws IOException, InterruptedException {
        return switch (this) {
            case APACHE -> ApacheLoadClient.connect(connectString, sessionTimeoutMs, maxFrameBytes, hostsInGivenOrder,
                    ApacheLoadClient.Socket.NETTY, tls);
            case APACHE_NIO -> {
                if (tls.enabled()) {
                    // the Apache client speaks TLS over its Netty socket only
                    throw new IllegalArgumentException("the Apache client's NIO socket has no TLS; use --client APACHE");
                }
                yield ApacheLoadClient.connect(connectString, sessionTimeoutMs, maxFrameBytes, hostsInGivenOrder,
                        ApacheLoadClient.Socket.NIO, tls);
            }
            case WARDEN -> WardenLoadClient.connect(connectString, sessionTimeoutMs, maxFrameBytes, hostsInGivenOrder,
                    tls);
        };
    }
}
