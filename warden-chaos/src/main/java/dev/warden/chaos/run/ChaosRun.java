package dev.warden.chaos.run;

import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.check.Checker;
import dev.warden.chaos.check.FencedLockChecker;
import dev.warden.chaos.check.MonotonicReadsChecker;
import dev.warden.chaos.check.QueueChecker;
import dev.warden.chaos.check.RegisterChecker;
import dev.warden.chaos.check.SequenceChecker;
import dev.warden.chaos.check.SessionChecker;
import dev.warden.chaos.check.SetChecker;
import dev.warden.chaos.check.WatchChecker;
import dev.warden.chaos.history.History;
import dev.warden.chaos.history.Op;
import dev.warden.chaos.nemesis.ClientCutoff;
import dev.warden.chaos.nemesis.Nemesis;
import dev.warden.chaos.net.NetNamespaces;
import dev.warden.chaos.net.NetworkMode;
import dev.warden.chaos.workload.FinalReads;
import dev.warden.chaos.workload.LockWorker;
import dev.warden.chaos.workload.QueueWorker;
import dev.warden.chaos.workload.RegisterWorker;
import dev.warden.chaos.workload.SetWorker;
import dev.warden.chaos.workload.WatchWorker;
import dev.warden.chaos.workload.Worker;
import dev.warden.cli.cluster.MemberProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run: start the ensemble, start every workload, let the nemesis inject faults for the fault
 * phase, heal everything, let the clients run on a little, stop them, read the final state and
 * check the history.
 */
public final class ChaosRun {
    private static final int OPS_PER_REGISTER_KEY = 250;

    private final RunOptions options;
    private final RunLog log;

    public ChaosRun(RunOptions options, RunLog log) {
        this.options = options;
        this.log = log;
    }

    public RunResult run() throws Exception {
        long startedAtMs = System.currentTimeMillis();
        History history = new History();
        log.printf("chaos: %s, %d members, seed %d, faults for %d s: %s%n", options.flavour().name().toLowerCase(),
                options.members(), options.seed(), options.faultFor().toSeconds(), options.runDir());
        NetworkMode.Choice network = options.network().resolve(NetNamespaces::unavailableBecause);
        if (network.mode() == NetworkMode.NETNS) {
            List<String> removed = NetNamespaces.removeLeftovers();
            if (!removed.isEmpty()) {
                log.println("chaos: removed network namespaces and links left by a killed run: " + removed);
            }
            log.println("chaos: network netns: each member in its own network namespace, partitions by iptables,"
                    + " delay and loss by relays on the bridge");
        } else {
            log.println("chaos: network relay: members on loopback, every fault by relays"
                    + network.why().map(why -> " (no namespaces: " + why + ")").orElse(""));
        }
        try (ChaosEnsemble ensemble = ChaosEnsemble.start(options.flavour(), options.members(), options.runDir(),
                options.classPath(), options.tickTimeMs(), options.seed(), options.extraConfigLines(),
                network.mode())) {
            log.printf("chaos: ensemble serving at %.1f s, leader %s%n", history.nowNs() / 1e9,
                    ensemble.leader().map(String::valueOf).orElse("?"));
            ResourceSampler sampler = new ResourceSampler(ensemble, history);
            ScheduledExecutorService sampling = Executors.newSingleThreadScheduledExecutor();
            if (options.sampleResources()) {
                sampling.scheduleAtFixedRate(sampler::sampleAll, 0, 5, TimeUnit.SECONDS);
            }
            List<Worker> workers = workers(ensemble.connectString(), history);
            List<Thread> threads = new ArrayList<>();
            for (Worker worker : workers) {
                Thread thread = new Thread(worker, "worker-" + threads.size());
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
            ClientCutoff cutoff = new ClientCutoff(ensemble, history, 4_000, options.tickTimeMs());
            Nemesis nemesis = new Nemesis(ensemble, history, options.faults(), options.seed(), options.holdMinMs(),
                    options.holdMaxMs(), cutoff, log);
            // a quiet start, so the timeline shows the healthy rate first
            Thread.sleep(5_000);
            long faultEndNs = history.nowNs() + options.faultFor().toNanos();
            nemesis.run(() -> history.nowNs() >= faultEndNs);
            healEverything(ensemble);
            log.printf("chaos: faults over at %.1f s, everything healed; clients run on for 10 s%n",
                    history.nowNs() / 1e9);
            Thread.sleep(10_000);
            for (Worker worker : workers) {
                worker.stop();
            }
            for (Thread thread : threads) {
                thread.join(30_000);
            }
            log.println("chaos: " + FinalReads.read(ensemble.connectString(), history));
            sampling.shutdownNow();
            if (options.sampleResources()) {
                sampler.sampleAll();
            }
            List<Op> ops = history.ops();
            List<CheckResult> checks = check(ops);
            for (CheckResult check : checks) {
                log.printf("check %-40s %-7s %s%n", check.checker(), check.verdict(), check.summary());
                check.anomalies().stream().limit(10).forEach(a -> log.println("  ANOMALY " + a.what()));
                if (check.anomalies().size() > 10) {
                    log.println("  ... and " + (check.anomalies().size() - 10) + " more (in the report)");
                }
            }
            List<Availability.Recovery> recoveries = Availability.of(nemesis.windows(), ops);
            return new RunResult(options, startedAtMs, history.nowNs(), nemesis.windows(), recoveries, checks, ops,
                    sampler.samples(), log.lines());
        }
    }

    private List<Worker> workers(String connectString, History history) {
        int timeoutMs = 5_000;
        long seed = options.seed() * 1_000;
        AtomicLong values = new AtomicLong();
        AtomicLong registerOps = new AtomicLong();
        AtomicLong setAdds = new AtomicLong();
        List<Worker> workers = new ArrayList<>();
        int client = 1;
        for (int i = 0; i < 4; i++) {
            workers.add(new RegisterWorker(client++, history, connectString, timeoutMs, seed++, registerOps,
                    OPS_PER_REGISTER_KEY, values));
        }
        for (int i = 0; i < 2; i++) {
            workers.add(new SetWorker(client++, history, connectString, timeoutMs, seed++, values, setAdds));
        }
        workers.add(new QueueWorker(client++, history, connectString, timeoutMs, seed++, true, values));
        workers.add(new QueueWorker(client++, history, connectString, timeoutMs, seed++, false, values));
        workers.add(new QueueWorker(client++, history, connectString, timeoutMs, seed++, false, values));
        for (int i = 0; i < 2; i++) {
            workers.add(new LockWorker(client++, history, connectString, timeoutMs, seed++));
        }
        workers.add(new WatchWorker(client++, history, connectString, timeoutMs, seed++, true));
        for (int i = 0; i < 2; i++) {
            workers.add(new WatchWorker(client++, history, connectString, timeoutMs, seed++, false));
        }
        return workers;
    }

    /** Every link clean, every member running, and the ensemble whole (or a note that it is not). */
    private void healEverything(ChaosEnsemble ensemble) throws Exception {
        ensemble.network().links().healAll();
        for (int id : ensemble.ids()) {
            MemberProcess member = ensemble.member(id);
            if (member.state() == MemberProcess.State.PAUSED) {
                ensemble.cluster().resume(id);
            }
            if (!member.isServingCandidate()) {
                log.println("chaos: member " + id + " was down at the end; starting it: " + member.describe());
                ensemble.cluster().kill9(id);
                ensemble.cluster().start(id);
            }
            if (ensemble.flavour() == dev.warden.cli.cluster.Flavour.WARDEN) {
                ensemble.setDiskFaults(id, "");
            }
            if (ensemble.clockFaultsAvailable()) {
                // takes effect if the member restarts; a member left skewed by a fault was healed by it
                ensemble.setClockForNextStart(id, "");
            }
        }
        try {
            ensemble.cluster().awaitQuorum(java.time.Duration.ofSeconds(90));
        } catch (IllegalStateException e) {
            log.println("chaos: ensemble not whole 90 s after the final heal: " + e.getMessage());
        }
    }

    /** Every checker over the history, each given its workload's ops. */
    public static List<CheckResult> check(List<Op> ops) {
        Map<String, List<Checker>> byWorkload = Map.of(
                RegisterWorker.WORKLOAD, List.of(new RegisterChecker(60_000), new MonotonicReadsChecker()),
                SetWorker.WORKLOAD, List.of(new SetChecker(), new SequenceChecker()),
                QueueWorker.WORKLOAD, List.of(new QueueChecker()),
                LockWorker.WORKLOAD, List.of(new FencedLockChecker()),
                WatchWorker.WORKLOAD, List.of(new WatchChecker()),
                ClientCutoff.WORKLOAD, List.of(new SessionChecker()));
        List<CheckResult> results = new ArrayList<>();
        for (String workload : List.of(RegisterWorker.WORKLOAD, SetWorker.WORKLOAD, QueueWorker.WORKLOAD,
                LockWorker.WORKLOAD, WatchWorker.WORKLOAD, ClientCutoff.WORKLOAD)) {
            List<Op> mine = ops.stream().filter(op -> op.workload().equals(workload)).toList();
            for (Checker checker : byWorkload.get(workload)) {
                try {
                    results.add(checker.check(mine));
                } catch (RuntimeException e) {
                    results.add(new CheckResult(checker.name(), CheckResult.Verdict.UNKNOWN,
                            "checker failed: " + e, List.of()));
                }
            }
        }
        return results;
    }
}
