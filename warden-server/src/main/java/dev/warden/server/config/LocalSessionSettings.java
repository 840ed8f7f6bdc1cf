package dev.warden.server.config;

/**
 * ZooKeeper's local sessions (localSessionsEnabled, localSessionsUpgradingEnabled; both off by
 * default, read from zoo.cfg only, as ZooKeeper reads them). With local sessions an ensemble
 * member opens and closes a session without the quorum; the session then lives on that member
 * alone. Upgrading lets such a session become global, through the quorum, when it creates its
 * first ephemeral node; without it that create fails with EPHEMERALONLOCALSESSION. A standalone
 * server has no quorum to spare and ignores both, as ZooKeeper's does.
 */
public record LocalSessionSettings(boolean enabled, boolean upgradingEnabled) {
    public static final LocalSessionSettings DEFAULTS = new LocalSessionSettings(false, false);

    public LocalSessionSettings withEnabled(boolean value) {
        return new LocalSessionSettings(value, upgradingEnabled);
    }

    public LocalSessionSettings withUpgradingEnabled(boolean value) {
        return new LocalSessionSettings(enabled, value);
    }
}
