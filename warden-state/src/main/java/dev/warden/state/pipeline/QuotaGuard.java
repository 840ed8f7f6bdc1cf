package dev.warden.state.pipeline;

/**
 * enforceQuota: the check before a create or setData that refuses one passing a hard quota
 * limit with QUOTAEXCEEDED, as ZooKeeper's prep does.
 */
public interface QuotaGuard {
    /** The quota'd path whose hard limit creating {@code path} with {@code dataBytes} would pass, or null. */
    String exceededByCreate(String path, long dataBytes);

    /** The quota'd path whose hard limit setting {@code path}'s data to {@code newDataBytes} would pass, or null. */
    String exceededBySetData(String path, long newDataBytes);

    /** No quota enforcement (enforceQuota=false, ZooKeeper's default). */
    QuotaGuard NONE = new QuotaGuard() {
        @Override
        public String exceededByCreate(String path, long dataBytes) {
            return null;
        }

        @Override
        public String exceededBySetData(String path, long newDataBytes) {
            return null;
        }
    };
}
