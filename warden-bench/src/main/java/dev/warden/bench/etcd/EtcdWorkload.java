package dev.warden.bench.etcd;

import java.util.Arrays;
import java.util.Optional;

/**
 * What the etcd load does, each the counterpart of one of the comparison's ZooKeeper scenarios,
 * with the same shape (sessions, requests in flight, value size, keys, participants).
 */
public enum EtcdWorkload {
    /** A put of a random existing key; against setData. */
    PUT("put", "setData"),
    /**
     * A serializable range read of one random key, answered by the member the client is connected
     * to as a ZooKeeper read is; against getData. (etcd's default read is linearizable: it asks the
     * leader first, which ZooKeeper's getData does not.)
     */
    RANGE("range (serializable)", "getData"),
    /** A txn: if the key's mod revision is the one this slot last wrote, put; against versioned setData. */
    CAS_TXN("txn (mod revision CAS)", "casSetData"),
    /** jetcd's Lock on a lease each client holds, then unlock; against the lock recipe with 8 clients. */
    LOCK("Lock + lease", "lock8"),
    /** A put of a key 100 clients watch; latency until the last has the event; against fanout100. */
    WATCH_FANOUT("watch fan-out", "fanout100");

    private final String title;
    private final String pairedScenario;

    EtcdWorkload(String title, String pairedScenario) {
        this.title = title;
        this.pairedScenario = pairedScenario;
    }

    /** How the report names the etcd operation. */
    public String title() {
        return title;
    }

    /** The comparison scenario whose shape this workload takes and whose Warden figure it is set against. */
    public String pairedScenario() {
        return pairedScenario;
    }

    /** The etcd counterpart of a comparison scenario, if it has one. */
    public static Optional<EtcdWorkload> pairedWith(String scenarioName) {
        return Arrays.stream(values()).filter(w -> w.pairedScenario.equalsIgnoreCase(scenarioName)).findFirst();
    }
}
