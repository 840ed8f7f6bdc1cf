package dev.warden.bench.jmh;

import dev.warden.bench.BenchMain;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine;

/**
 * {@code warden bench micro [JMH options] [benchmark regexp]}: the JMH microbenchmarks of this
 * module, run by JMH itself in this process (which forks a JVM per benchmark unless told
 * {@code -f 0}). Every argument goes to JMH unchanged, so its own options and help apply.
 */
@Command(name = "micro",
        description = {"Run the JMH microbenchmarks of Warden's hot paths.",
                "Codec, data tree, watch manager, log append + fsync batching. Every argument goes to JMH:",
                "-l lists the benchmarks, -h shows JMH's options. For example:",
                "  warden bench micro -f 1 -wi 3 -i 5 DataTreeBenchmark",
                "  warden bench micro -p batchSize=16 -p parentDir=/fastdisk TxnLogBenchmark"})
public final class MicroCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Unmatched
    private List<String> jmhArgs = new ArrayList<>();

    @Override
    public Integer call() {
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(jmhArgs.toArray(String[]::new));
        } catch (CommandLineOptionException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "JMH: " + e.getMessage());
        }
        try {
            if (options.shouldHelp()) {
                options.showHelp();
            } else if (options.shouldList()) {
                new Runner(options).list();
            } else if (options.shouldListWithParams()) {
                new Runner(options).listWithParams(options);
            } else if (options.shouldListProfilers()) {
                options.listProfilers();
            } else if (options.shouldListResultFormats()) {
                options.listResultFormats();
            } else {
                new Runner(options).run();
            }
            return 0;
        } catch (RunnerException | IOException e) {
            spec.commandLine().getErr().println("microbenchmarks failed: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return BenchMain.EXIT_FAILED;
        }
    }
}
