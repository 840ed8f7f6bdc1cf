package dev.warden.bench.load;

import dev.warden.client.ConnectString;
import java.util.Objects;

/**
 * One load run, validated on construction.
 *
 * @param connectString   host:port[,host:port...] of any ZooKeeper-protocol server or ensemble
 * @param client          the client library that generates the load
 * @param workload        what to run
 * @param sessions        sessions issuing requests (workers for the session storm)
 * @param inFlightPerSession requests each session keeps outstanding (request workloads only)
 * @param valueSizeBytes  bytes written by setData and create
 * @param keyCount        keys the key-based workloads spread over
 * @param readPercent     share of reads in the mixed workload, 0-100
 * @param watchers        sessions watching the node in the fan-out workload
 * @param lockClients     sessions competing for the lock
 * @param warmupSeconds   seconds run before measuring
 * @param measureSeconds  seconds measured
 * @param sessionTimeoutMs session timeout each client asks for
 * @param rootPath        parent of everything the run creates
 * @param maxFrameBytes   frame limit of the Warden client (large values need more than the default)
 * @param tls             plaintext, or the TLS settings every session of the run connects with
 */
public record LoadSpec(String connectString, ClientKind client, Workload workload, int sessions,
                       int inFlightPerSession, int valueSizeBytes, int keyCount, int readPercent,
                       int watchers, int lockClients, int warmupSeconds, int measureSeconds,
                       int sessionTimeoutMs, String rootPath, int maxFrameBytes, LoadClientTls tls) {

    /** The largest value a run may write; servers need a raised jute.maxbuffer beyond about 1 MB. */
    public static final int MAX_VALUE_BYTES = 4 << 20;

    public LoadSpec {
        Objects.requireNonNull(connectString, "connectString");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(rootPath, "rootPath");
        Objects.requireNonNull(tls, "tls");
        if (connectString.isBlank()) {
            throw new IllegalArgumentException("connect string is empty");
        }
        try {
            ConnectString.parse(connectString);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("connect string '" + connectString + "': " + e.getMessage(), e);
        }
        positive("sessions", sessions);
        positive("in-flight", inFlightPerSession);
        positive("key-count", keyCount);
        positive("watchers", watchers);
        positive("lock-clients", lockClients);
        positive("measure-seconds", measureSeconds);
        positive("session-timeout-ms", sessionTimeoutMs);
        positive("max-frame-bytes", maxFrameBytes);
        if (valueSizeBytes < 0 || valueSizeBytes > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("value-size=" + valueSizeBytes + " must be 0.." + MAX_VALUE_BYTES);
        }
        if (workload == Workload.CAS_SET_DATA && (long) sessions * inFlightPerSession > keyCount) {
            // two slots on one key would fail each other's version checks: the figure would count races
            throw new IllegalArgumentException("casSetData gives every in-flight request a key of its own: key-count="
                    + keyCount + " must be at least sessions × in-flight = " + (long) sessions * inFlightPerSession);
        }
        if (readPercent < 0 || readPercent > 100) {
            throw new IllegalArgumentException("read-percent=" + readPercent + " must be 0..100");
        }
        if (warmupSeconds < 0) {
            throw new IllegalArgumentException("warmup-seconds=" + warmupSeconds + " must be >= 0");
        }
        if (!rootPath.startsWith("/") || rootPath.length() < 2 || rootPath.endsWith("/")) {
            throw new IllegalArgumentException("root '" + rootPath + "' must be an absolute path other than /");
        }
    }

    /** A plaintext run. */
    public LoadSpec(String connectString, ClientKind client, Workload workload, int sessions, int inFlightPerSession,
                    int valueSizeBytes, int keyCount, int readPercent, int watchers, int lockClients,
                    int warmupSeconds, int measureSeconds, int sessionTimeoutMs, String rootPath, int maxFrameBytes) {
        this(connectString, client, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount, readPercent,
                watchers, lockClients, warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath, maxFrameBytes,
                LoadClientTls.NONE);
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + "=" + value + " must be > 0");
        }
    }

    /**
     * Defaults: 16 sessions x 32 in flight, 1 KiB values over 1000 keys (large: 1 MiB over 16 keys,
     * so the tree stays small), 90 % reads, 100 watchers, 8 lock clients, 5 s warm-up, 20 s measured.
     */
    public static LoadSpec defaults(String connectString, Workload workload) {
        boolean large = workload == Workload.LARGE;
        int valueBytes = large ? Workload.LARGE_VALUE_BYTES : 1024;
        int keys = large ? 16 : 1000;
        return new LoadSpec(connectString, ClientKind.APACHE, workload, 16, 32, valueBytes, keys, 90,
                100, 8, 5, 20, 30_000, "/warden-bench", 4 << 20);
    }

    /** The node under which this workload keeps its data. */
    String workloadRoot() {
        return rootPath + "/" + workload.cliName();
    }

    public LoadSpec withConnectString(String value) {
        return new LoadSpec(value, client, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount,
                readPercent, watchers, lockClients, warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath,
                maxFrameBytes, tls);
    }

    public LoadSpec withLoad(int sessionCount, int inFlight, int valueBytes) {
        return new LoadSpec(connectString, client, workload, sessionCount, inFlight, valueBytes, keyCount,
                readPercent, watchers, lockClients, warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath,
                maxFrameBytes, tls);
    }

    public LoadSpec withDurations(int warmup, int measure) {
        return new LoadSpec(connectString, client, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount,
                readPercent, watchers, lockClients, warmup, measure, sessionTimeoutMs, rootPath, maxFrameBytes, tls);
    }

    public LoadSpec withClient(ClientKind value) {
        return new LoadSpec(connectString, value, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount,
                readPercent, watchers, lockClients, warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath,
                maxFrameBytes, tls);
    }

    public LoadSpec withParticipants(int watcherCount, int lockClientCount, int readPct) {
        return new LoadSpec(connectString, client, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount,
                readPct, watcherCount, lockClientCount, warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath,
                maxFrameBytes, tls);
    }

    public LoadSpec withTls(LoadClientTls value) {
        return new LoadSpec(connectString, client, workload, sessions, inFlightPerSession, valueSizeBytes, keyCount,
                readPercent, watchers, lockClients, warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath,
                maxFrameBytes, value);
    }
}
