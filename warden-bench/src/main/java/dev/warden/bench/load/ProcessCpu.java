package dev.warden.bench.load;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The CPU time a set of server processes has used so far, as the JDK reports it
 * ({@link ProcessHandle.Info#totalCpuDuration}): user plus system time of every thread the process
 * ever ran, exited ones included. On Linux that is read from {@code /proc/<pid>/stat}, in clock
 * ticks of 10 ms; an 8 s window at a fifth of a core is 160 ticks, so the figure is good to about
 * one per cent. Read before and after a measured window, it gives what the servers spent on that
 * window's operations, whatever the load client spent.
 */
public final class ProcessCpu implements ServerCpuMeter {
    private final List<Long> pids;

    public ProcessCpu(List<Long> pids) {
        this.pids = List.copyOf(pids);
    }

    /** The processes' CPU time in nanoseconds, or -1 when one of them cannot be read (gone, or not reported). */
    @Override
    public long cpuNs() {
        long totalNs = 0;
        for (long pid : pids) {
            Optional<Duration> cpu = ProcessHandle.of(pid).flatMap(process -> process.info().totalCpuDuration());
            if (cpu.isEmpty()) {
                return -1;
            }
            totalNs += cpu.get().toNanos();
        }
        return totalNs;
    }
}
