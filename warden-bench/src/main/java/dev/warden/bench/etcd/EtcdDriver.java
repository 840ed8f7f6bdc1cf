package dev.warden.bench.etcd;

/** Keeps an etcd workload's operations going until told to stop. */
interface EtcdDriver {
    /** Starts issuing operations; returns at once. */
    void start();

    /** Stops issuing new operations and waits up to {@code timeoutMs} for those under way. */
    void stopAndDrain(long timeoutMs) throws InterruptedException;
}
