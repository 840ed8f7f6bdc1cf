package dev.warden.server;

import dev.warden.state.pipeline.QuotaGuard;
import dev.warden.state.tree.DataTree;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * enforceQuota=true: creates and setData checked against the quota limits and stats in the tree,
 * as ZooKeeper checks them (the applied tree; the deepest quota'd ancestor-or-self; a hard limit
 * refuses, a soft one only logs). Soft-limit messages are logged at most once a minute per path.
 */
final class TreeQuotaGuard implements QuotaGuard {
    private static final Logger log = LoggerFactory.getLogger(TreeQuotaGuard.class);
    private static final long LOG_INTERVAL_MS = 60_000;

    private final DataTree tree;
    private final java.util.Map<String, Long> lastLoggedMs = new java.util.concurrent.ConcurrentHashMap<>();

    TreeQuotaGuard(DataTree tree) {
        this.tree = tree;
    }

    @Override
    public String exceededByCreate(String path, long dataBytes) {
        return tree.hardQuotaExceeded(path, dataBytes, 1, this::logRateLimited);
    }

    @Override
    public String exceededBySetData(String path, long newDataBytes) {
        byte[] current = tree.dataOf(path);
        return tree.hardQuotaExceeded(path, newDataBytes - (current == null ? 0 : current.length), 0,
                this::logRateLimited);
    }

    private void logRateLimited(String message) {
        String key = message.substring(0, Math.max(0, message.indexOf(" [")));
        long now = System.nanoTime() / 1_000_000;
        Long last = lastLoggedMs.get(key);
        if (last == null || now - last >= LOG_INTERVAL_MS) {
            lastLoggedMs.put(key, now);
            log.warn("{}", message);
        }
    }
}
