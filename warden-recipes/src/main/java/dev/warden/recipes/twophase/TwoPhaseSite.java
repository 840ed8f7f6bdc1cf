package dev.warden.recipes.twophase;

import dev.warden.client.WardenClient;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.PendingWaits;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One site's part in a two-phase commit. {@link #join} marks the site as taking part and
 * creates its ephemeral node in one transaction, and reads the payload; the site then does its
 * work and {@link #vote}s once. Every site (and the coordinator) follows the votes and ends
 * with the same outcome: COMMIT if all sites voted COMMIT, ABORT as soon as one voted ABORT or
 * a site that had joined lost its ephemeral node before voting (crash or expiry).
 *
 * <p>Connection: SUSPENDED waits continue. If this site's session is LOST before it voted, the
 * others see its ephemeral node vanish and abort. {@link #vote} is a versioned write, retried
 * on connection loss; a retry of an applied vote reports {@code BadVersionException}.
 */
public final class TwoPhaseSite {
    private final WardenClient client;
    private final String tx;
    private final String site;
    private final byte[] payload;
    private final PendingWaits waits;

    private TwoPhaseSite(WardenClient client, String tx, String site, byte[] payload) {
        this.client = client;
        this.tx = tx;
        this.site = site;
        this.payload = payload;
        this.waits = new PendingWaits(client);
    }

    /**
     * Takes part in transaction {@code tx} as {@code site}. Fails with
     * {@code NoNodeException} if the site is not one of the transaction's and with
     * {@code BadVersionException} if it already joined.
     */
    public static CompletableFuture<TwoPhaseSite> join(WardenClient client, String tx, String site) {
        TxLayout.checkSiteName(site);
        return client.transaction()
                .setData(TxLayout.vote(tx, site), TxLayout.encode(TxLayout.JOINED), TxLayout.VERSION_CREATED)
                .create(TxLayout.alive(tx, site), new byte[0], CreateMode.EPHEMERAL)
                .commit()
                .thenCompose(joined -> client.getData(tx))
                .thenApply(read -> new TwoPhaseSite(client, tx, site, read.data()));
    }

    public static TwoPhaseSite join(WardenClient client, String tx, String site, Duration timeout) {
        return client.blocking(timeout).await(join(client, tx, site));
    }

    /** What the coordinator asked the sites to do. */
    public byte[] payload() {
        return payload.clone();
    }

    public String site() {
        return site;
    }

    /** Writes this site's vote (once). */
    public CompletableFuture<Void> vote(Decision vote) {
        return client.setData(TxLayout.vote(tx, site), TxLayout.encode(vote.name()), TxLayout.VERSION_JOINED)
                .thenApply(stat -> null);
    }

    /** Completes with the transaction's outcome. */
    public CompletableFuture<Decision> awaitDecision() {
        return DecisionTracker.track(client, tx, waits);
    }

    /** Blocking form: the outcome, or {@code WardenException.TimeoutException}. */
    public Decision awaitDecision(Duration timeout) {
        CompletableFuture<Decision> wait = awaitDecision();
        try {
            return client.blocking(timeout).await(wait);
        } finally {
            wait.cancel(false);
        }
    }
}
