package dev.warden.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The machine a comparison ran on, as the report describes it. */
public record MachineInfo(String cpuModel, int cores, long memoryMb, String os, String java) {

    /** Reads /proc on Linux; elsewhere CPU model, memory and OS are reported as unknown. */
    public static MachineInfo ofThisMachine() {
        String cpu = procValue(Path.of("/proc/cpuinfo"), "model name");
        String memKb = procValue(Path.of("/proc/meminfo"), "MemTotal");
        long memoryMb = -1;
        if (memKb != null) {
            memoryMb = Long.parseLong(memKb.replaceAll("[^0-9]", "")) / 1024;
        }
        String os = firstLine(Path.of("/proc/sys/kernel/ostype"), "unknown OS") + " "
                + firstLine(Path.of("/proc/sys/kernel/osrelease"), "");
        String java = "Java " + Runtime.version();
        return new MachineInfo(cpu == null ? "unknown CPU" : cpu, Runtime.getRuntime().availableProcessors(),
                memoryMb, os, java);
    }

    private static String firstLine(Path file, String fallback) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.isEmpty() ? fallback : lines.get(0).trim();
        } catch (IOException | RuntimeException e) {
            return fallback;
        }
    }

    /** The value of the first "key : value" line of a /proc file, or null. */
    static String procValue(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    return line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: the report says unknown
        }
        return null;
    }

    public String describe() {
        return cpuModel + ", " + cores + " cores, " + (memoryMb < 0 ? "unknown" : memoryMb + " MiB") + " RAM; "
                + os + "; " + java;
    }
}
