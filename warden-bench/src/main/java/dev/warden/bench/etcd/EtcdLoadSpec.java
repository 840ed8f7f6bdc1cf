package dev.warden.bench.etcd;

import java.util.List;
import java.util.Objects;

/**
 * One etcd load run: which workload, against which members, in the shape of its ZooKeeper
 * counterpart (clients stand for sessions, each on member <i>i</i> mod n as the ZooKeeper load
 * places its sessions).
 *
 * @param prefix         key prefix the run keeps its data under, e.g. "/warden-bench-setData"
 * @param clients        clients (connections): request workloads' sessions, the lock's contenders,
 *                       or the fan-out's watchers plus one writer
 * @param inFlight       requests each client keeps outstanding (request workloads)
 * @param keyCount       keys the request workloads spread over
 */
public record EtcdLoadSpec(List<String> endpoints, EtcdWorkload workload, String prefix, int clients, int inFlight,
                           int valueSizeBytes, int keyCount, int warmupSeconds, int measureSeconds) {
    public EtcdLoadSpec {
        endpoints = List.copyOf(endpoints);
        Objects.requireNonNull(workload, "workload");
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("no etcd endpoints");
        }
        if (!prefix.startsWith("/") || prefix.length() < 2) {
            throw new IllegalArgumentException("key prefix '" + prefix + "' must start with / and name something");
        }
        if (clients < 1 || inFlight < 1 || keyCount < 1 || valueSizeBytes < 0 || warmupSeconds < 0
                || measureSeconds < 1) {
            throw new IllegalArgumentException("etcd load needs clients, in-flight, keys and measured seconds >= 1,"
                    + " value size and warm-up >= 0");
        }
        if (workload == EtcdWorkload.WATCH_FANOUT && clients < 2) {
            throw new IllegalArgumentException("watch fan-out needs a writer and at least one watcher");
        }
        if (workload == EtcdWorkload.CAS_TXN && (long) clients * inFlight > keyCount) {
            throw new IllegalArgumentException("the CAS txn gives every in-flight request a key of its own: "
                    + keyCount + " keys for " + (long) clients * inFlight + " requests in flight");
        }
    }
}
