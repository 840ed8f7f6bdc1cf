package dev.warden.server.config;

/**
 * How observers find what they sync from. {@code masterPort} is ZooKeeper's observerMasterPort:
 * above 0, followers take observers and each observer follows a follower instead of the leader
 * (docs/ENSEMBLE.md, "Observer masters"); 0, the default, leaves them following the leader.
 * {@code reconnectDelayMs} is ZooKeeper's observer.reconnectDelayMs: an observer that lost its
 * leader (with observer masters: that tried every master) waits a random time below it before it
 * asks again, so a fleet of observers does not come back all at once; 0, the default, never waits.
 */
public record ObserverSettings(int masterPort, long reconnectDelayMs) {
    public static final ObserverSettings DEFAULTS = new ObserverSettings(0, 0);

    public ObserverSettings {
        ServerConfig.Range.OBSERVER_MASTER_PORT.check(masterPort);
        ServerConfig.Range.OBSERVER_RECONNECT_DELAY.check(reconnectDelayMs);
    }

    public ObserverSettings withMasterPort(int value) {
        return new ObserverSettings(value, reconnectDelayMs);
    }

    public ObserverSettings withReconnectDelayMs(long value) {
        return new ObserverSettings(masterPort, value);
    }
}
