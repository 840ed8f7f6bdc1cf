package dev.warden.bench.load;

/** Keeps a workload's operations going until told to stop. */
interface LoadDriver {
    /** Starts issuing operations; returns at once. */
    void start();

    /** Stops issuing new operations and waits up to {@code timeoutMs} for those under way. */
    void stopAndDrain(long timeoutMs) throws InterruptedException;
}
