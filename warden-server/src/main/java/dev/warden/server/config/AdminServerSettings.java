package dev.warden.server.config;

/**
 * ZooKeeper's AdminServer keys: the HTTP port serving the admin commands as JSON.
 *
 * @param enabled       admin.enableServer
 * @param address       admin.serverAddress, the address to listen on
 * @param port          admin.serverPort (0 picks a free port)
 * @param commandUrl    admin.commandURL, the path the commands are under
 * @param idleTimeoutMs admin.idleTimeout, how long a connection may stay idle
 * @param tls           HTTPS and client certificates (admin.forceHttps, admin.portUnification, ...)
 * @param rateLimiterIntervalMs admin.rateLimiterIntervalInMS: at most one snapshot command, and one restore
 *                      command, per this many milliseconds (0: no limit)
 * @param restoreEnabled admin.restore.enabled: whether the restore command runs at all
 * @param snapshotEnabled admin.snapshot.enabled: whether the snapshot command runs at all
 */
public record AdminServerSettings(boolean enabled, String address, int port, String commandUrl, long idleTimeoutMs,
                                  AdminTlsSettings tls, long rateLimiterIntervalMs, boolean restoreEnabled,
                                  boolean snapshotEnabled) {
    /**
     * Off unless enabled (ZooKeeper turns it on by default; an HTTP port nobody asked for is not
     * opened here), on loopback like the client port, and otherwise ZooKeeper's defaults.
     */
    public static final AdminServerSettings DEFAULTS = new AdminServerSettings(false, "127.0.0.1", 8080, "/commands",
            30_000, AdminTlsSettings.DEFAULTS, 5 * 60_000, true, true);

    public AdminServerSettings {
        if (address == null || address.isBlank()) {
            throw ConfigException.invalid("admin.serverAddress", address, "must be a host name or IP address to listen on");
        }
        address = address.trim();
        if (port < 0 || port > 65535) {
            throw ConfigException.invalid("admin.serverPort", port, "must be a port from 0 to 65535 (0 picks a free port)");
        }
        if (commandUrl == null || !commandUrl.startsWith("/") || commandUrl.length() < 2 || commandUrl.endsWith("/")) {
            throw ConfigException.invalid("admin.commandURL", commandUrl,
                    "must be a path such as /commands: starting with /, not ending with /");
        }
        if (idleTimeoutMs <= 0) {
            throw ConfigException.invalid("admin.idleTimeout", idleTimeoutMs, "must be a positive number of milliseconds");
        }
        if (tls == null) {
            tls = AdminTlsSettings.DEFAULTS;
        }
        if (rateLimiterIntervalMs < 0) {
            throw ConfigException.invalid("admin.rateLimiterIntervalInMS", rateLimiterIntervalMs,
                    "must be 0 (no limit) or a positive number of milliseconds");
        }
    }

    public AdminServerSettings withEnabled(boolean v) {
        return new AdminServerSettings(v, address, port, commandUrl, idleTimeoutMs,
                tls, rateLimiterIntervalMs, restoreEnabled, snapshotEnabled);
    }

    public AdminServerSettings withAddress(String v) {
        return new AdminServerSettings(enabled, v, port, commandUrl, idleTimeoutMs,
                tls, rateLimiterIntervalMs, restoreEnabled, snapshotEnabled);
    }

    public AdminServerSettings withPort(int v) {
        return new AdminServerSettings(enabled, address, v, commandUrl, idleTimeoutMs,
                tls, rateLimiterIntervalMs, restoreEnabled, snapshotEnabled);
    }

    public AdminServerSettings withCommandUrl(String v) {
        return new AdminServerSettings(enabled, address, port, v, idleTimeoutMs,
                tls, rateLimiterIntervalMs, restoreEnabled, snapshotEnabled);
    }

    public AdminServerSettings withIdleTimeoutMs(long v) {
        return new AdminServerSettings(enabled, address, port, commandUrl, v,
                tls, rateLimiterIntervalMs, restoreEnabled, snapshotEnabled);
    }

    public AdminServerSettings withTls(AdminTlsSettings v) {
        return new AdminServerSettings(enabled, address, port, commandUrl, idleTimeoutMs,
                v, rateLimiterIntervalMs, restoreEnabled, snapshotEnabled);
    }

    public AdminServerSettings withRateLimiterIntervalMs(long v) {
        return new AdminServerSettings(enabled, address, port, commandUrl, idleTimeoutMs, tls, v, restoreEnabled,
                snapshotEnabled);
    }

    public AdminServerSettings withRestoreEnabled(boolean v) {
        return new AdminServerSettings(enabled, address, port, commandUrl, idleTimeoutMs,
                tls, rateLimiterIntervalMs, v, snapshotEnabled);
    }

    public AdminServerSettings withSnapshotEnabled(boolean v) {
        return new AdminServerSettings(enabled, address, port, commandUrl, idleTimeoutMs,
                tls, rateLimiterIntervalMs, restoreEnabled, v);
    }
}
