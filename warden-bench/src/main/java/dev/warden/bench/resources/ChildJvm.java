package dev.warden.bench.resources;

import dev.warden.bench.ExitCleanup;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a main class of this module in a fresh JVM with this JVM's classpath. */
final class ChildJvm {
    private ChildJvm() {
    }

    /** The heap options this JVM was started with, so a child can get the same. */
    static List<String> heapOptionsOfThisJvm() {
        List<String> options = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-Xmx") || arg.startsWith("-Xms")) {
                options.add(arg);
            }
        }
        return options;
    }

    /**
     * Starts {@code mainClass} with {@code args}. The child's stdout is a pipe for the caller to
     * read; its stderr (logs) goes to {@code stderrLog}, so a chatty child can never block on a
     * full pipe. If this JVM exits first (a signal), the child is stopped with it.
     */
    static Process start(List<String> jvmOptions, Class<?> mainClass, List<String> args, Path stderrLog)
            throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(ManagementFactory.getRuntimeMXBean().getClassPath());
        command.add(mainClass.getName());
        command.addAll(args);
        Process child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(stderrLog.toFile()))
                .start();
        ExitCleanup.stopOnExit(mainClass.getSimpleName() + " (pid " + child.pid() + ")", child);
        return child;
    }
}
