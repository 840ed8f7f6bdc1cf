package dev.warden.client;

/**
 * Decides whether an idempotent operation whose reply was lost with the connection is sent
 * again on the next connection. Retried requests keep their place: they are re-sent in their
 * original order ahead of anything submitted later, so FIFO completion order still holds.
 *
 * <p>Counted as idempotent (may be retried): exists, getData, getChildren (+Stat), getACL,
 * sync, getEphemerals, getAllChildrenNumber, whoAmI, multiRead, addWatch, and setData /
 * delete / setACL with an explicit version (not -1). For the versioned writes a retry is
 * safe but may report {@code BadVersionException} / {@code NoNodeException} if the first
 * attempt was in fact applied. Never retried: create (see
 * {@link WardenClient#createProtected}), unversioned writes, transactions, removeWatches.
 */
@FunctionalInterface
public interface RetryPolicy {

    /**
     * @param retriesSoFar how many times this request was already re-sent
     * @param elapsedMs    time since the request was first submitted
     * @return true to re-send it on the next connection
     */
    boolean allowRetry(int retriesSoFar, long elapsedMs);

    /** Never retry: every lost reply fails with {@code ConnectionLossException}. */
    static RetryPolicy none() {
        return (retries, elapsedMs) -> false;
    }

    /** Retry up to {@code maxRetries} times while less than {@code maxElapsedMs} has passed. */
    static RetryPolicy upTo(int maxRetries, long maxElapsedMs) {
        if (maxRetries < 0 || maxElapsedMs < 0) {
            throw new IllegalArgumentException("negative retry bound");
        }
        return (retries, elapsedMs) -> retries < maxRetries && elapsedMs < maxElapsedMs;
    }
}
