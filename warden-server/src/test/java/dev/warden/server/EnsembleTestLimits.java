package dev.warden.server;

/**
 * Timing shared by every three-member ensemble the tests start (Warden's and Apache's, in the
 * server, client and recipe modules).
 */
public final class EnsembleTestLimits {
    /**
     * Init and sync limits in ticks: 25 ticks of 200 ms, so 5 s. A loaded CI host stalls for a
     * second now and then, and that must not make a follower drop its leader and the clients
     * lose their connections in the middle of a check. A member a test stops closes its
     * sockets, so its loss is still noticed at once.
     */
    public static final int LIMIT_TICKS = 25;

    private EnsembleTestLimits() {
    }
}
