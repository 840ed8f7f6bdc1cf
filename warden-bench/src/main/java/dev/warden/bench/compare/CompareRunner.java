package dev.warden.bench.compare;

import dev.warden.bench.WorkDirectories;
import dev.warden.bench.load.LoadResult;
import dev.warden.bench.load.LoadRunner;
import dev.warden.bench.load.LoadSpec;
import dev.warden.bench.load.ProcessCpu;
import dev.warden.bench.load.Workload;
import dev.warden.bench.report.MachineInfo;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs every scenario against Apache ZooKeeper and Warden, topology by topology, as many rounds as
 * asked. Both flavours' deployments are up together and the order alternates from one scenario and
 * one round to the next, so a slow phase of a busy machine does not always fall on the same server.
 */
public final class CompareRunner {
    /** Timed writes for the disk's sync latency: a few tenths of a second on an SSD. */
    private static final int DISK_SAMPLES = 2000;
    private final PrintWriter out;
    /** Set once a restart for disk space left too little free anyway: no more such restarts. */
    private boolean diskGuardGivenUp;

    /** @param out where progress and each run's SUMMARY line go */
    public CompareRunner(PrintWriter out) {
        this.out = out;
    }

    public CompareReport run(CompareOptions options) throws IOException, InterruptedException {
        ZonedDateTime startedAt = ZonedDateTime.now();
        Files.createDirectories(options.workDir());
        DiskLatency disk = DiskLatency.measure(options.workDir(), DISK_SAMPLES);
        out.printf(Locale.ROOT, "fsync of %d bytes in %s: p50 %d µs, p99 %d µs (%d writes)%n", DiskLatency.WRITE_BYTES,
                options.workDir(), disk.p50Us(), disk.p99Us(), disk.samples());
        out.flush();
        List<ScenarioOutcome> outcomes = new ArrayList<>();
        for (Topology topology : options.topologies()) {
            outcomes.addAll(runTopology(topology, options));
        }
        return new CompareReport(startedAt, MachineInfo.ofThisMachine(), disk, options, outcomes);
    }

    private List<ScenarioOutcome> runTopology(Topology topology, CompareOptions options)
            throws IOException, InterruptedException {
        Map<Flavour, Deployment> up = new EnumMap<>(Flavour.class);
        Map<Flavour, String> down = new EnumMap<>(Flavour.class);
        EtcdTarget etcd = options.withEtcd() ? new EtcdTarget(topology, options, out) : null;
        try {
            for (Flavour flavour : Flavour.values()) {
                start(flavour, topology, options, up, down);
            }
            if (etcd != null) {
                etcd.start();
            }
            List<ScenarioOutcome> outcomes = new ArrayList<>();
            List<Scenario> scenarios = options.scenarios();
            for (int i = 0; i < scenarios.size(); i++) {
                outcomes.add(runScenario(topology, scenarios.get(i), i, up, down, etcd, options));
            }
            return outcomes;
        } finally {
            for (Deployment deployment : up.values()) {
                deployment.close();
            }
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    /**
     * Runs one scenario {@code options.rounds()} times against each server. Which server goes first
     * alternates from one round and one scenario to the next, so a slow phase of a busy machine does
     * not always fall on the same server.
     */
    private ScenarioOutcome runScenario(Topology topology, Scenario scenario, int scenarioIndex,
                                Map<Flavour, Deployment> up, Map<Flavour, String> down, EtcdTarget etcd,
                                CompareOptions options)
            throws InterruptedException {
        Map<Flavour, List<LoadResult>> runs = new EnumMap<>(Flavour.class);
        Map<Flavour, String> missing = new EnumMap<>(down);
        List<LoadResult> etcdResults = new ArrayList<>();
        boolean etcdRuns = etcd != null && etcd.hasCounterpart(scenario);
        for (int round = 0; round < options.rounds(); round++) {
            restartAfreshIfLowOnDisk(topology, options, up, down);
            boolean evenTurn = (scenarioIndex + round) % 2 == 0;
            List<Flavour> order = evenTurn ? List.of(Flavour.APACHE, Flavour.WARDEN)
                    : List.of(Flavour.WARDEN, Flavour.APACHE);
            if (etcdRuns && evenTurn) { // etcd first on one turn, last on the next, as the other two alternate
                etcd.runOnce(scenario, round).ifPresent(etcdResults::add);
            }
            for (Flavour flavour : order) {
                if (!missing.containsKey(flavour)) {
                    runOnce(topology, scenario, flavour, round, up, down, options, runs, missing);
                }
            }
            if (etcdRuns && !evenTurn) {
                etcd.runOnce(scenario, round).ifPresent(etcdResults::add);
            }
        }
        String etcdMissing = etcd == null ? null : etcd.missingFor(scenario, etcdResults.size());
        return new ScenarioOutcome(topology, scenario, runs, missing, etcdResults, etcdMissing);
    }

    /** One measured run; a server that failed or died is reported missing for the whole scenario. */
    private void runOnce(Topology topology, Scenario scenario, Flavour flavour, int round,
                         Map<Flavour, Deployment> up, Map<Flavour, String> down, CompareOptions options,
                         Map<Flavour, List<LoadResult>> runs, Map<Flavour, String> missing)
            throws InterruptedException {
        if (up.containsKey(flavour) && !up.get(flavour).deadMembers().isEmpty()) {
            restart(flavour, topology, options, up, down, "died before " + scenario.name());
            if (down.containsKey(flavour)) {
                missing.put(flavour, down.get(flavour));
                return;
            }
        }
        Deployment deployment = up.get(flavour);
        if (deployment == null) {
            missing.put(flavour, down.getOrDefault(flavour, "not available"));
            return;
        }
        String roundNote = options.rounds() > 1 ? ", round " + (round + 1) + " of " + options.rounds() : "";
        say("%s, %s: %s (%s)%s", topology.title(), flavour.title(), scenario.name(), scenario.load(), roundNote);
        try {
            LoadResult result = new LoadRunner(out, new ProcessCpu(deployment.memberPids()))
                    .run(scenario.spec(deployment.connectString(),
                    options.client(), options.warmupSeconds(), options.measureSeconds())
                    .withTls(deployment.clientTls()));
            runs.computeIfAbsent(flavour, f -> new ArrayList<>()).add(result);
            say("%s", result.describe());
            say("%s %s %s", flavour.name().toLowerCase(), topology.name().toLowerCase(), result.summaryLine());
        } catch (IOException | RuntimeException e) {
            runs.remove(flavour);
            missing.put(flavour, "failed: " + e.getMessage());
            say("%s, %s: %s failed: %s", topology.title(), flavour.title(), scenario.name(), e);
        }
        List<String> dead = deployment.deadMembers();
        if (!dead.isEmpty()) {
            // its figures (if any) were measured against a dying server: report the death instead
            runs.remove(flavour);
            missing.put(flavour, "died during " + scenario.name() + ": " + String.join("; ", dead));
            restart(flavour, topology, options, up, down, "died during " + scenario.name());
        }
    }

    /**
     * A full comparison writes tens of GiB of transaction logs (every write is logged by every
     * member of both servers, and neither purges old logs within a run). A server whose disk fills
     * up stops serving, which would be measured as a failure of that server. So before each round,
     * when the work directory's file system is low on space, both servers are stopped, every data
     * directory of this run is deleted (the topologies already measured included) and both start
     * again empty, JIT warm-up included. If even that leaves too little space, the run says so
     * once and goes on without restarting again.
     */
    private void restartAfreshIfLowOnDisk(Topology topology, CompareOptions options, Map<Flavour, Deployment> up,
                                          Map<Flavour, String> down) throws InterruptedException {
        if (diskGuardGivenUp) {
            return;
        }
        long freeBytes;
        try {
            freeBytes = Files.getFileStore(options.workDir()).getUsableSpace();
        } catch (IOException e) {
            say("cannot read the free space of %s (%s); going on", options.workDir(), e.getMessage());
            return;
        }
        if (freeBytes >= options.minFreeDiskBytes()) {
            return;
        }
        say("%s: %.1f GiB free where the members keep their data, below %.1f GiB: restarting both servers with"
                        + " empty data directories", topology.title(), gib(freeBytes), gib(options.minFreeDiskBytes()));
        for (Deployment deployment : up.values()) {
            deployment.close();
        }
        List<Flavour> wereUp = List.copyOf(up.keySet());
        up.clear();
        deleteAllData(options.workDir());
        for (Flavour flavour : wereUp) {
            try {
                start(flavour, topology, options, up, down);
            } catch (IOException e) {
                down.put(flavour, "not available after a restart: " + e.getMessage());
            }
        }
        try {
            long freeAfterBytes = Files.getFileStore(options.workDir()).getUsableSpace();
            if (freeAfterBytes < options.minFreeDiskBytes()) {
                diskGuardGivenUp = true;
                say("only %.1f GiB free even with empty data directories; going on without restarting for disk"
                        + " space again (a full disk will stop a server)", gib(freeAfterBytes));
            }
        } catch (IOException e) {
            diskGuardGivenUp = true;
        }
    }

    private static double gib(long bytes) {
        return bytes / (double) (1L << 30);
    }

    /** Deletes the directories of every deployment of this run so far, every one of them stopped. */
    private static void deleteAllData(Path workDir) {
        try (Stream<Path> dirs = Files.list(workDir)) {
            dirs.filter(CompareRunner::isDeploymentDir).toList().forEach(WorkDirectories::deleteTree);
        } catch (IOException e) {
            // what could not be deleted stays; the servers start in new directories regardless
        }
    }

    /** "standalone", "ensemble3-restart2": a directory {@link #start} made. */
    private static boolean isDeploymentDir(Path dir) {
        String name = dir.getFileName().toString();
        for (Topology topology : Topology.values()) {
            String prefix = topology.name().toLowerCase();
            if (name.equals(prefix) || name.startsWith(prefix + "-restart")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Starts a fresh deployment, in a directory of its own, so a member that died (say, out of
     * memory) does not leave the following scenarios to a dead or half-working server.
     */
    private void restart(Flavour flavour, Topology topology, CompareOptions options, Map<Flavour, Deployment> up,
                         Map<Flavour, String> down, String why) throws InterruptedException {
        say("%s, %s: %s; restarting it for the next scenarios", flavour.title(), topology.title(), why);
        up.remove(flavour).close();
        try {
            start(flavour, topology, options, up, down);
        } catch (IOException e) {
            down.put(flavour, "not available after a restart: " + e.getMessage());
        }
    }

    private void start(Flavour flavour, Topology topology, CompareOptions options, Map<Flavour, Deployment> up,
                       Map<Flavour, String> down) throws IOException, InterruptedException {
        String name = topology.name().toLowerCase();
        Path dir = options.workDir().resolve(name);
        for (int restart = 1; Files.exists(dir.resolve(flavour.name().toLowerCase() + "-started")); restart++) {
            dir = options.workDir().resolve(name + "-restart" + restart);
        }
        Files.createDirectories(dir);
        Files.createFile(dir.resolve(flavour.name().toLowerCase() + "-started"));
        say("starting %s, %s", flavour.title(), topology.title());
        try {
            Deployment deployment = Deployment.start(flavour, topology, dir, options.jvm(), options.readyTimeoutMs());
            up.put(flavour, deployment);
            say("%s serving on %s", flavour.title(), deployment.connectString());
            warmUpJit(flavour, topology, deployment, options);
        } catch (DeploymentUnavailableException e) {
            down.put(flavour, "not available: " + e.getMessage());
            say("%s, %s: not available: %s", flavour.title(), topology.title(), e.getMessage());
        }
    }

    /**
     * Unmeasured load, once per deployment: half mixed reads and writes, half creates and deletes,
     * so both servers have compiled their request paths before the first scenario is measured.
     * On a 2-core machine running three members the compilers need 15–30 s; without this the first
     * scenario measures them more than the server.
     */
    private void warmUpJit(Flavour flavour, Topology topology, Deployment deployment, CompareOptions options)
            throws InterruptedException {
        int seconds = options.jitWarmupSeconds();
        if (seconds == 0) {
            return;
        }
        say("%s, %s: %d s of unmeasured load to warm up the JIT", flavour.title(), topology.title(), seconds);
        String connect = deployment.connectString();
        for (Workload workload : List.of(Workload.MIXED, Workload.CREATE_DELETE)) {
            LoadSpec defaults = LoadSpec.defaults(connect, workload);
            LoadSpec spec = new LoadSpec(connect, options.client(), workload, 16, 32, 1024, 1000, 50,
                    defaults.watchers(), defaults.lockClients(), Math.max(1, seconds / 2) - 1, 1,
                    defaults.sessionTimeoutMs(), "/warden-bench-jit-warmup", defaults.maxFrameBytes(),
                    deployment.clientTls());
            try {
                new LoadRunner(new PrintWriter(Writer.nullWriter())).run(spec);
            } catch (IOException | RuntimeException e) {
                say("%s, %s: JIT warm-up load failed (%s); going on", flavour.title(), topology.title(), e.getMessage());
            }
        }
    }

    private void say(String format, Object... args) {
        out.printf(format + "%n", args);
        out.flush();
    }
}
