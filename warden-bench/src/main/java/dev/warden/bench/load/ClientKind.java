package dev.warden.bench.load;

import java.io.IOException;

/** Which client library generates the load. Apache's is the default: it is neutral to both servers. */
public enum ClientKind {
    APACHE,
    WARDEN;

    /** Opens one session and returns once it is connected. */
    public LoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes)
            throws IOException, InterruptedException {
        return switch (this) {
            case APACHE -> ApacheLoadClient.connect(connectString, sessionTimeoutMs);
            case WARDEN -> WardenLoadClient.connect(connectString, sessionTimeoutMs, maxFrameBytes);
        };
    }
}
