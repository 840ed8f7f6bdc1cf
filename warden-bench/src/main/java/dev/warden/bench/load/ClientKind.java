package dev.warden.bench.load;

import java.io.IOException;

/** Which client library generates the load. Apache's is the default: it is neutral to both servers. */
public enum ClientKind {
    APACHE,
    WARDEN;

    /** Opens one session on a server the client picks (shuffled, as clients do) and returns once it is connected. */
    public LoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes)
            throws IOException, InterruptedException {
        return open(connectString, sessionTimeoutMs, maxFrameBytes, false);
    }

    /**
     * Opens session number {@code sessionIndex} of a run on its home server ({@link SessionPlacement}:
     * server index mod n of the connect string, the others as fail-over) and returns once it is connected.
     */
    public LoadClient connectPlaced(String connectString, int sessionIndex, int sessionTimeoutMs, int maxFrameBytes)
            throws IOException, InterruptedException {
        return open(SessionPlacement.homeFirst(connectString, sessionIndex), sessionTimeoutMs, maxFrameBytes, true);
    }

    private LoadClient open(String connectString, int sessionTimeoutMs, int maxFrameBytes, boolean hostsInGivenOrder)
            throws IOException, InterruptedException {
        return switch (this) {
            case APACHE -> ApacheLoadClient.connect(connectString, sessionTimeoutMs, hostsInGivenOrder);
            case WARDEN -> WardenLoadClient.connect(connectString, sessionTimeoutMs, maxFrameBytes, hostsInGivenOrder);
        };
    }
}
