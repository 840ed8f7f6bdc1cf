package dev.warden.client;

/**
 * What a {@link StateListener} is told about the client's link to the ensemble.
 *
 * <ul>
 *   <li>{@link #CONNECTED}: the first read-write session was established (also after read-only
 *       sessions, which end when the client moves to a read-write server).</li>
 *   <li>{@link #CONNECTED_READ_ONLY}: with {@link WardenClientBuilder#canBeReadOnly()}, the client
 *       has a read-only session on a member cut off from its quorum (ZooKeeper's
 *       ConnectedReadOnly): reads work, writes fail with NOTREADONLY.</li>
 *   <li>{@link #SUSPENDED}: the connection dropped; the session may still be alive on the
 *       servers, so ephemerals and watches are kept while the client tries other hosts.</li>
 *   <li>{@link #RECONNECTED}: the same session was re-attached (watches re-registered).</li>
 *   <li>{@link #LOST}: the session expired, either as told by a server or detected locally after
 *       the negotiated timeout passed without any server. Terminal: build a new client.</li>
 *   <li>{@link #CLOSED}: {@link WardenClient#close()} was called. Terminal.</li>
 *   <li>{@link #AUTH_FAILED}: the server refused the client's SASL authentication (ZooKeeper's
 *       AuthFailed). Terminal: the credentials must change first.</li>
 * </ul>
 */
public enum ConnectionState {
    CONNECTED,
    CONNECTED_READ_ONLY,
    SUSPENDED,
    RECONNECTED,
    LOST,
    CLOSED,
    AUTH_FAILED;

    /** True for the states after which the client never talks to a server again. */
    public boolean isTerminal() {
        return this == LOST || this == CLOSED || this == AUTH_FAILED;
    }
}
