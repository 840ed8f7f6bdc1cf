package dev.warden.bench.load;

import java.io.IOException;

/** Which client library generates the load. Apache's is the default: it is neutral to both servers. */
public enum ClientKind {
    APACHE,
    WARDEN;

    /** Opens one session on a server the client picks (shuffled, as clients do) and returns once it is connected. */
    public LoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes)
            throws IOException, InterruptedException {
        return switch (this) {
            case APACHE -> ApacheLoadClient.connect(connectString, sessionTimeoutMs, false);
            case WARDEN -> WardenLoadClient.connect(connectString, sessionTimeoutMs, maxFrameBytes, false);
        };
    }

    /**
     * Opens session number {@code sessionIndex} of a run on its home server ({@link SessionPlacement}:
     * server index mod n of the connect string, the others as fail-over) and returns once it is connected.
     */
    public LoadClient connectPlaced(String connectString, int sessionIndex, int sessionTimeoutMs, int maxFrameBytes)
            throws IOException, InterruptedException {
        String placed = SessionPlacement.homeFirst(connectString, sessionIndex);
        return switch (this) {
            case APACHE -> ApacheLoadClient.connect(placed, sessionTimeoutMs, true);
            case WARDEN -> WardenLoadClient.connect(placed, sessionTimeoutMs, maxFrameBytes, true);
        };
    }
}
