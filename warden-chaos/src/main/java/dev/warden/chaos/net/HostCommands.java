package dev.warden.chaos.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the host's network tools ({@code ip}, {@code iptables}) and reports what they said when they fail. */
final class HostCommands {
    private static final long TIMEOUT_S = 30;

    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    private HostCommands() {
    }

    /** Runs {@code command}; its exit code and its output (stdout and stderr together). */
    static Result run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + TIMEOUT_S + " s");
            }
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8).trim());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + " interrupted", e);
        }
    }

    /** Runs {@code command}; an IOException naming it and its output unless it exits 0. */
    static String require(List<String> command) throws IOException {
        Result result = run(command);
        if (!result.ok()) {
            throw new IOException(String.join(" ", command) + " failed (exit " + result.exitCode() + "): "
                    + result.output());
        }
        return result.output();
    }

    /** As {@link #run}, for a command that may fail and whose failure changes nothing (cleanup). */
    static void quietly(List<String> command) {
        try {
            run(command);
        } catch (IOException ignored) {
            // best effort: what could not be removed is found again by the next run's leftover sweep
        }
    }
}
