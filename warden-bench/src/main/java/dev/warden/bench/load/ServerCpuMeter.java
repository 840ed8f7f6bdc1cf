package dev.warden.bench.load;

/** The CPU time the servers under test have used so far, read at both ends of a measured window. */
@FunctionalInterface
public interface ServerCpuMeter {
    /** For a run whose servers are not ours to watch (an address given on the command line). */
    ServerCpuMeter NONE = () -> -1;

    /** CPU time in nanoseconds since the servers started, or -1 when it cannot be read. */
    long cpuNs();
}
