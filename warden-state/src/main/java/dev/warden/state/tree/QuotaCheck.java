package dev.warden.state.tree;

import java.util.function.Consumer;

/** ZooKeeper's quota rule for one figure (count or bytes) of one quota'd path. */
final class QuotaCheck {
    private QuotaCheck() {
    }

    /**
     * Whether adding {@code diff} to {@code current} passes the hard limit (returns the quota'd
     * path: the change is refused with QUOTAEXCEEDED) or the soft one (reported, allowed). With a
     * hard limit set it is the one checked, as in ZooKeeper; -1 means no limit.
     */
    static String check(String quotaPath, String figure, String label, long diff, long current, long softLimit,
                        long hardLimit, Consumer<String> softExceeded) {
        if (diff == 0 || softLimit < 0 && hardLimit < 0) {
            return null;
        }
        boolean hard = hardLimit > -1;
        long limit = hard ? hardLimit : softLimit;
        long after = current + diff;
        if (after <= limit) {
            return null;
        }
        String message = "Quota exceeded: " + quotaPath + " [current " + figure + "=" + after + ", "
                + (hard ? "hard" : "soft") + label + "Limit=" + limit + "]";
        softExceeded.accept(message);
        return hard ? quotaPath : null;
    }
}
