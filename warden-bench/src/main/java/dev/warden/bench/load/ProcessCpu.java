package dev.warden.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU time a set of server processes has used so far, read from Linux's
 * {@code /proc/<pid>/stat}: user plus system time of every thread the process ever ran, exited
 * ones included. Read before and after a measured window, it gives what the servers spent on
 * that window's operations, whatever the load client spent.
 *
 * <p>The kernel counts in clock ticks of 10 ms: {@code USER_HZ} is 100 on every Linux
 * architecture the JDK runs on ({@code getconf CLK_TCK}). An 8 s window at a fifth of a core is
 * 160 ticks, so the figure is good to about one per cent.
 */
public final class ProcessCpu implements ServerCpuMeter {
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** utime and stime: fields 14 and 15 of the line, so 12th and 13th after the command's ")". */
    private static final int UTIME_AFTER_COMMAND = 11;

    private final List<Long> pids;

    public ProcessCpu(List<Long> pids) {
        this.pids = List.copyOf(pids);
    }

    /** The processes' CPU time in nanoseconds, or -1 when one of them cannot be read (gone, or not Linux). */
    @Override
    public long cpuNs() {
        long ticks = 0;
        for (long pid : pids) {
            long processTicks = ticks(Path.of("/proc", Long.toString(pid), "stat"));
            if (processTicks < 0) {
                return -1;
            }
            ticks += processTicks;
        }
        return ticks * NANOS_PER_TICK;
    }

    /** utime + stime of one {@code stat} file, or -1 when it cannot be read or parsed. */
    static long ticks(Path statFile) {
        try {
            return ticksOf(Files.readString(statFile));
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    /**
     * The command name (second field) is in parentheses and may itself hold spaces and
     * parentheses, so the fields are counted from the last ")".
     */
    static long ticksOf(String statLine) {
        int afterCommand = statLine.lastIndexOf(')');
        if (afterCommand < 0) {
            throw new IllegalArgumentException("not a /proc stat line: " + statLine);
        }
        String[] fields = statLine.substring(afterCommand + 1).trim().split("\\s+");
        return Long.parseLong(fields[UTIME_AFTER_COMMAND]) + Long.parseLong(fields[UTIME_AFTER_COMMAND + 1]);
    }
}
