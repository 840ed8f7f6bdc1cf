package dev.warden.server.config;

/**
 * ZooKeeper's multi-address keys: whether a server line may list several addresses, one per
 * network ({@code server.N=a1:p1:e1|a2:p2:e2}), and how a member picks the address it dials.
 *
 * @param enabled                    multiAddress.enabled: lines with several addresses are allowed
 * @param reachabilityCheckEnabled   multiAddress.reachabilityCheckEnabled: before dialling a member
 *                                   with several addresses, the first of them that answers a
 *                                   reachability probe ({@code InetAddress.isReachable}) is dialled
 * @param reachabilityCheckTimeoutMs multiAddress.reachabilityCheckTimeoutMs: how long each probe waits
 */
public record MultiAddressSettings(boolean enabled, boolean reachabilityCheckEnabled, int reachabilityCheckTimeoutMs) {
    /** ZooKeeper's defaults: off; when on, probes of at most a second. */
    public static final MultiAddressSettings DEFAULTS = new MultiAddressSettings(false, true, 1000);

    public MultiAddressSettings {
        if (reachabilityCheckTimeoutMs <= 0) {
            throw ConfigException.invalid("multiAddress.reachabilityCheckTimeoutMs", reachabilityCheckTimeoutMs,
                    "must be a positive number of milliseconds");
        }
    }

    public MultiAddressSettings withEnabled(boolean v) {
        return new MultiAddressSettings(v, reachabilityCheckEnabled, reachabilityCheckTimeoutMs);
    }

    public MultiAddressSettings withReachabilityCheckEnabled(boolean v) {
        return new MultiAddressSettings(enabled, v, reachabilityCheckTimeoutMs);
    }

    public MultiAddressSettings withReachabilityCheckTimeoutMs(int v) {
        return new MultiAddressSettings(enabled, reachabilityCheckEnabled, v);
    }
}
