package dev.warden.sim;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What a run did, two ways: a hash of every fault and delivery in order (two runs of one seed
 * must end with the same hash, which is how determinism is tested), and, for a verbose run, a
 * line per event stamped with the simulated time.
 */
final class SimTrace {
    private final LongSupplier nowMs;
    private long hash = 17;
    private Consumer<String> log = line -> { };

    SimTrace(LongSupplier nowMs) {
        this.nowMs = nowMs;
    }

    void setLog(Consumer<String> log) {
        this.log = log;
    }

    void log(String what) {
        log.accept(String.format("%8d ms  %s", nowMs.getAsLong(), what));
    }

    void trace(long a, long b, long c) {
        hash = hash * 1_000_003L + a * 31 * 31 + b * 31 + c;
    }

    long hash() {
        return hash;
    }

    /** Records a packet handed to its member: in the trace always, in the log if worth reading. */
    void delivered(SimNetwork.Packet packet) {
        trace(packet.from() * 16 + packet.to(), packet.deliverAtMs(), packet.message().getClass().getSimpleName().hashCode());
        if (MessageText.worthLogging(packet.message())) {
            log(packet.from() + " -> " + packet.to() + " " + MessageText.describe(packet.message()));
        }
    }
}
