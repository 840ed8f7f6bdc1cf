package dev.warden.bench.load;

import dev.warden.bench.BenchMain;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code warden bench load}: one workload against one server or ensemble. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Run one workload against a ZooKeeper-protocol server and report ops/s and latency.",
                "Progress goes to stderr once a second; the last stdout line is 'SUMMARY {json}'."})
public final class LoadCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-c", "--connect"}, required = true, paramLabel = "HOST:PORT[,...]",
            description = "Connect string of the server or ensemble.")
    private String connectString;

    @Option(names = {"-w", "--workload"}, required = true, paramLabel = "NAME", converter = WorkloadConverter.class,
            description = "setData, getData, exists, mixed, createDelete, lock, fanout, sessionStorm, large.")
    private Workload workload;

    @Option(names = "--client", defaultValue = "APACHE", paramLabel = "APACHE|APACHE_NIO|WARDEN",
            description = "Client generating the load: the Apache ZooKeeper Java client over its Netty socket"
                    + " (APACHE) or its NIO socket (APACHE_NIO), or Warden's client (default ${DEFAULT-VALUE}).")
    private ClientKind client;

    @Option(names = "--sessions", defaultValue = "16", description = "Sessions (storm: workers) (default ${DEFAULT-VALUE}).")
    private int sessions;

    @Option(names = "--in-flight", defaultValue = "32", description = "Requests in flight per session (default ${DEFAULT-VALUE}).")
    private int inFlight;

    @Option(names = "--value-size", paramLabel = "BYTES",
            description = "Value size in bytes (default 1024; 1048576 for large).")
    private Integer valueSizeBytes;

    @Option(names = "--keys", paramLabel = "N", description = "Keys to spread over (default 1000; 16 for large).")
    private Integer keyCount;

    @Option(names = "--read-percent", defaultValue = "90", description = "Reads in the mixed workload, %% (default ${DEFAULT-VALUE}).")
    private int readPercent;

    @Option(names = "--watchers", defaultValue = "100", description = "Watching sessions for fanout (default ${DEFAULT-VALUE}).")
    private int watchers;

    @Option(names = "--lock-clients", defaultValue = "8", description = "Contending sessions for lock (default ${DEFAULT-VALUE}).")
    private int lockClients;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "SECONDS", description = "Warm-up seconds (default ${DEFAULT-VALUE}).")
    private int warmupSeconds;

    @Option(names = "--duration", defaultValue = "20", paramLabel = "SECONDS", description = "Measured seconds (default ${DEFAULT-VALUE}).")
    private int measureSeconds;

    @Option(names = "--session-timeout-ms", defaultValue = "30000", description = "Session timeout (default ${DEFAULT-VALUE}).")
    private int sessionTimeoutMs;

    @Option(names = "--root", defaultValue = "/warden-bench", description = "Parent node of the run's data (default ${DEFAULT-VALUE}).")
    private String rootPath;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        LoadSpec load;
        try {
            LoadSpec defaults = LoadSpec.defaults(connectString, workload);
            load = new LoadSpec(connectString, client, workload, sessions, inFlight,
                    valueSizeBytes != null ? valueSizeBytes : defaults.valueSizeBytes(),
                    keyCount != null ? keyCount : defaults.keyCount(), readPercent, watchers, lockClients,
                    warmupSeconds, measureSeconds, sessionTimeoutMs, rootPath, defaults.maxFrameBytes());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            LoadResult result = new LoadRunner(err).run(load);
            err.println(result.describe());
            err.flush();
            spec.commandLine().getOut().println(result.summaryLine());
            spec.commandLine().getOut().flush();
            return 0;
        } catch (IOException e) {
            err.println("load run failed: " + e.getMessage());
            for (String hint : ServerLimitHints.forSpec(load)) {
                err.println("hint: " + hint);
            }
            err.flush();
            return BenchMain.EXIT_FAILED;
        }
    }

    static final class WorkloadConverter implements CommandLine.ITypeConverter<Workload> {
        @Override
        public Workload convert(String value) {
            return Workload.parse(value);
        }
    }
}
