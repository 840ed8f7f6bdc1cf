package dev.warden.bench.load;

import dev.warden.server.config.ServerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Hints printed when a load run fails, for the two server defaults a run can exceed without
 * the server saying why: the client only sees its connection dropped.
 */
final class ServerLimitHints {
    /** A server's defaults; Warden's maxClientCnxns and jute.maxbuffer are ZooKeeper's. */
    private static final ServerConfig SERVER_DEFAULTS = ServerConfig.builder().build();
    static final int DEFAULT_MAX_CLIENT_CONNECTIONS = SERVER_DEFAULTS.maxClientCnxns();
    static final int DEFAULT_JUTE_MAX_BUFFER_BYTES = SERVER_DEFAULTS.juteMaxBuffer();
    /** Room a write request needs besides its value: frame length, header, path, version, ACLs. */
    static final int REQUEST_OVERHEAD_BYTES = 1024;

    private ServerLimitHints() {
    }

    static List<String> forSpec(LoadSpec spec) {
        List<String> hints = new ArrayList<>();
        int sessions = LoadRunner.connectionsOpened(spec);
        if (sessions > DEFAULT_MAX_CLIENT_CONNECTIONS) {
            hints.add(String.format(Locale.ROOT, "this run opens %d sessions from one address; servers refuse more"
                    + " than maxClientCnxns (default %d) from one address: set maxClientCnxns=0 (no limit) or at"
                    + " least %d in the server's zoo.cfg", sessions, DEFAULT_MAX_CLIENT_CONNECTIONS, sessions));
        }
        if ((long) spec.valueSizeBytes() + REQUEST_OVERHEAD_BYTES > DEFAULT_JUTE_MAX_BUFFER_BYTES) {
            int fits = suggestedMaxBuffer(spec.valueSizeBytes());
            hints.add(String.format(Locale.ROOT, "a %d-byte value does not fit the default frame limit (jute.maxbuffer=%d):"
                    + " start the server with a larger one, e.g. jute.maxbuffer=%d in Warden's zoo.cfg, or"
                    + " -Djute.maxbuffer=%d for Apache ZooKeeper", spec.valueSizeBytes(), DEFAULT_JUTE_MAX_BUFFER_BYTES,
                    fits, fits));
        }
        return hints;
    }

    /** The value plus overhead, rounded up to a whole MiB. */
    static int suggestedMaxBuffer(int valueSizeBytes) {
        long needed = (long) valueSizeBytes + REQUEST_OVERHEAD_BYTES;
        long mib = 1 << 20;
        return (int) Math.min(Integer.MAX_VALUE, (needed + mib - 1) / mib * mib);
    }
}
