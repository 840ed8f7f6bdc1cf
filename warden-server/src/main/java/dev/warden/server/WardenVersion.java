package dev.warden.server;

/** What the server reports as its version (srvr, mntr, envi). */
public final class WardenVersion {
    /** Clients parse the part before '-' as a ZooKeeper version; Warden speaks 3.9's protocol. */
    public static final String DESCRIPTION = "3.9.5-warden-0.1.0, built on 2026-11-21 00:00 UTC";

    private WardenVersion() {
    }
}
