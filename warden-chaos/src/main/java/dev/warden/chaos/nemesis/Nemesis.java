package dev.warden.chaos.nemesis;

import dev.warden.chaos.history.History;
import dev.warden.chaos.net.LinkState;
import dev.warden.chaos.run.ChaosEnsemble;
import dev.warden.chaos.run.DataFiles;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.MemberMode;
import dev.warden.cli.cluster.MemberProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * Injects one fault at a time, chosen from the seed ({@link FaultDeck}: every kind once before any
 * twice), and logs each: apply, hold for a while, heal, wait until the ensemble is whole again,
 * rest, next. One fault at a time keeps every anomaly and every recovery time attributable to one
 * cause.
 */
public final class Nemesis {
    /** The workloads' session timeout is 5 s; a pause is held past it. */
    static final long PAUSE_AT_LEAST_MS = 7_000;
    private final ChaosEnsemble ensemble;
    private final History history;
    private final List<FaultKind> kinds;
    private final FaultDeck deck;
    private final Random random;
    private final PrintStream log;
    private final ClientCutoff cutoff;
    private final long holdMinMs;
    private final long holdMaxMs;
    private final List<FaultWindow> windows = Collections.synchronizedList(new ArrayList<>());
    private final NetworkFaults network;

    /**
     * @param kinds the faults to draw from; those this ensemble cannot take (Warden storage faults on
     *              Apache, clock faults without libfaketime) are left out, and said so
     */
    public Nemesis(ChaosEnsemble ensemble, History history, List<FaultKind> kinds, long seed, long holdMinMs,
                   long holdMaxMs, ClientCutoff cutoff, PrintStream log) {
        this.ensemble = ensemble;
        this.history = history;
        this.random = new Random(seed);
        this.network = new NetworkFaults(ensemble, random);
        this.log = log;
        this.cutoff = cutoff;
        this.holdMinMs = holdMinMs;
        this.holdMaxMs = holdMaxMs;
        List<FaultKind> usable = new ArrayList<>();
        for (FaultKind kind : kinds) {
            if (kind.wardenStorageOnly() && ensemble.flavour() != Flavour.WARDEN) {
                continue;
            }
            if (kind.needsFaketime() && !ensemble.clockFaultsAvailable()) {
                log.println("nemesis: no " + ChaosEnsemble.LIBFAKETIME + ", so no clock faults (apt-get install faketime)");
                continue;
            }
            usable.add(kind);
        }
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("none of the faults " + kinds + " can be injected into "
                    + ensemble.flavour());
        }
        this.kinds = List.copyOf(usable);
        this.deck = new FaultDeck(this.kinds, seed);
    }

    public List<FaultKind> kinds() {
        return kinds;
    }

    public List<FaultWindow> windows() {
        return List.copyOf(windows);
    }

    /** Injects faults until {@code stop} says so (checked between faults) or the thread is interrupted. */
    public void run(BooleanSupplier stop) throws InterruptedException {
        int index = 0;
        while (!stop.getAsBoolean()) {
            FaultKind kind = deck.next();
            runOne(index++, kind);
            Thread.sleep(2_000 + random.nextInt(2_000));
        }
    }

    private void runOne(int index, FaultKind kind) throws InterruptedException {
        Fault fault = create(kind);
        long startNs = history.nowNs();
        String detail;
        try {
            detail = fault.apply();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            detail = "could not inject: " + e;
        }
        log.printf("nemesis %6.1f s  %-20s %s%n", startNs / 1e9, kind.id(), detail);
        long holdMs = holdMinMs + (long) (random.nextDouble() * (holdMaxMs - holdMinMs));
        if (kind == FaultKind.CLIENT_CUTOFF) {
            holdMs = Math.max(holdMs, cutoff.allowedMs() + 2_000);
        }
        if (kind == FaultKind.PAUSE) {
            // past the clients' session timeout, so the paused member's sessions must move or expire
            holdMs = Math.max(holdMs, PAUSE_AT_LEAST_MS);
        }
        Thread.sleep(holdMs);
        long healNs = history.nowNs();
        List<String> notes = new ArrayList<>();
        try {
            notes.addAll(fault.heal());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            notes.add("heal failed: " + e);
        }
        long wholeNs = awaitWhole(Duration.ofSeconds(60));
        if (wholeNs < 0) {
            notes.add("not whole 60 s after the heal: " + ensemble.cluster().modes());
        }
        for (String note : notes) {
            log.printf("nemesis %6.1f s  %-20s %s%n", history.nowNs() / 1e9, "  heal", note);
        }
        windows.add(new FaultWindow(index, kind, detail, startNs, healNs, wholeNs, notes));
    }

    /** When every running member served again with one leader, or -1. */
    private long awaitWhole(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Integer> leaders = new ArrayList<>();
            boolean all = true;
            for (int id : ensemble.ids()) {
                MemberMode mode = ensemble.mode(id);
                all &= mode.servesInEnsemble();
                if (mode == MemberMode.LEADER) {
                    leaders.add(id);
                }
            }
            if (all && leaders.size() == 1) {
                return history.nowNs();
            }
            Thread.sleep(100);
        }
        return -1;
    }

    private int leaderOrRandom() {
        if (random.nextBoolean()) {
            var leader = ensemble.leader();
            if (leader.isPresent()) {
                return leader.get();
            }
        }
        return ensemble.ids().get(random.nextInt(ensemble.ids().size()));
    }

    private Fault create(FaultKind kind) {
        return switch (kind) {
            case PARTITION_LEADER -> network.partition(() -> {
                int leader = ensemble.leader().orElse(ensemble.ids().get(0));
                List<Integer> rest = new ArrayList<>(ensemble.ids());
                rest.remove(Integer.valueOf(leader));
                return List.of(List.of(leader), rest);
            });
            case PARTITION_HALVES -> network.partition(network::randomHalves);
            case PARTITION_BRIDGE -> network.bridge();
            case PARTITION_ONE_WAY -> network.oneWay();
            case PARTITION_FLAPPING -> network.flapping();
            case NET_SLOW -> network.links(new LinkState(false, 20 + random.nextInt(130), 50, 0));
            case NET_LOSSY -> network.links(new LinkState(false, 0, 0, 0.2));
            case KILL -> restartAfter(leaderOrRandom(), member -> "kill -9");
            case PAUSE -> pause(leaderOrRandom());
            case CLOCK -> clock(leaderOrRandom());
            case CLIENT_CUTOFF -> cutoff.fault();
            case POWER_CUT -> powerCut();
            case EMPTY_DATA_DIR -> restartAfter(leaderOrRandom(),
                    member -> "kill -9, data directory emptied: " + DataFiles.wipe(member.dataDir()));
            case SNAPSHOT_CORRUPT -> restartAfter(leaderOrRandom(),
                    member -> "kill -9, " + DataFiles.corruptNewestSnapshot(ensemble.flavour(), member.dataDir()));
            case LOG_PURGED -> restartAfter(leaderOrRandom(),
                    member -> "kill -9, " + DataFiles.purgeOldestSegment(ensemble.flavour(), member.dataDir()));
            case LOG_DAMAGED -> restartAfter(leaderOrRandom(),
                    member -> "kill -9, " + DataFiles.damageSegment(ensemble.flavour(), member.dataDir(), random));
            case DISK_SLOW -> disk(leaderOrRandom(), "slow=" + (100 + random.nextInt(300)));
            case DISK_FULL -> disk(leaderOrRandom(), "full");
            case FSYNC_FAIL -> disk(leaderOrRandom(), "fsync-fail");
            case CRASH_LOSE_UNSYNCED -> crashLosingUnsynced(leaderOrRandom());
        };
    }

    private interface Damage {
        String on(MemberProcess stoppedMember) throws IOException;
    }

    /** kill -9, then {@code damage} on the stopped member; the heal restarts it and watches it come back. */
    private Fault restartAfter(int id, Damage damage) {
        return new Fault() {
            @Override
            public String apply() throws Exception {
                ensemble.cluster().kill9(id);
                return "member " + id + ": " + damage.on(ensemble.member(id));
            }

            @Override
            public List<String> heal() throws Exception {
                return restart(id);
            }
        };
    }

    /**
     * Starts a stopped member and waits for it to serve. A member that exits instead (it refused its
     * data) is reported with its exit and last log lines, then started again with an empty data
     * directory, which is what an operator would do, so the run can go on.
     */
    private List<String> restart(int id) throws Exception {
        List<String> notes = new ArrayList<>();
        MemberProcess member = ensemble.member(id);
        // marks a member that already died (or was killed) stopped, so it can be started
        ensemble.cluster().kill9(id);
        ensemble.cluster().start(id);
        long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        while (System.nanoTime() < deadline) {
            if (!member.isServingCandidate()) {
                notes.add("member " + id + " exited on restart: " + member.describe() + "; last log lines: "
                        + tail(member));
                notes.add("member " + id + " restarted with an empty data directory: " + DataFiles.wipe(member.dataDir()));
                ensemble.cluster().kill9(id);
                ensemble.cluster().start(id);
                return notes;
            }
            if (ensemble.mode(id).servesInEnsemble()) {
                return notes;
            }
            Thread.sleep(200);
        }
        notes.add("member " + id + " running but not serving 45 s after its restart (mode " + ensemble.mode(id) + ")");
        return notes;
    }

    private static String tail(MemberProcess member) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(member.stderrFile()));
            lines.addAll(Files.readAllLines(member.stdoutFile()));
            List<String> interesting = lines.stream().filter(l -> l.contains("ERROR") || l.contains("WARN")
                    || l.contains("refus") || l.contains("Exception")).toList();
            List<String> pick = interesting.isEmpty() ? lines : interesting;
            return String.join(" | ", pick.subList(Math.max(0, pick.size() - 3), pick.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * Fsyncs made slow for two seconds first, so that the member holds written but unsynced log
     * records when it is killed (with fast fsyncs there is seldom anything to lose), then kill -9
     * and every write after its file's last fsync taken back.
     */
    private Fault crashLosingUnsynced(int id) {
        return new Fault() {
            @Override
            public String apply() throws Exception {
                ensemble.setDiskFaults(id, "slow=700");
                Thread.sleep(2_000);
                ensemble.cluster().kill9(id);
                ensemble.setDiskFaults(id, "");
                int undone = ensemble.loseUnsyncedWrites(id);
                return "member " + id + ": fsyncs slowed to 700 ms for 2 s, kill -9, " + undone
                        + " unsynced writes taken back";
            }

            @Override
            public List<String> heal() throws Exception {
                return restart(id);
            }
        };
    }

    /** Every member killed at once; Warden's lose what they had not fsynced; the heal starts them all. */
    private Fault powerCut() {
        return new Fault() {
            @Override
            public String apply() throws Exception {
                List<String> lost = new ArrayList<>();
                boolean warden = ensemble.flavour() == Flavour.WARDEN;
                if (warden) {
                    // as for crash-lose-unsynced: slow fsyncs leave unsynced records to lose
                    for (int id : ensemble.ids()) {
                        ensemble.setDiskFaults(id, "slow=700");
                    }
                    Thread.sleep(2_000);
                }
                for (int id : ensemble.ids()) {
                    ensemble.cluster().kill9(id);
                }
                if (warden) {
                    for (int id : ensemble.ids()) {
                        ensemble.setDiskFaults(id, "");
                    }
                }
                for (int id : ensemble.ids()) {
                    if (ensemble.flavour() == Flavour.WARDEN) {
                        lost.add("member " + id + ": " + ensemble.loseUnsyncedWrites(id));
                    }
                }
                return (warden ? "fsyncs slowed to 700 ms for 2 s, then " : "") + "kill -9 of every member"
                        + (lost.isEmpty() ? "" : "; unsynced writes taken back: " + lost);
            }

            @Override
            public List<String> heal() throws Exception {
                for (int id : ensemble.ids()) {
                    ensemble.cluster().start(id);
                }
                List<String> notes = new ArrayList<>();
                for (int id : ensemble.ids()) {
                    if (!ensemble.member(id).isServingCandidate()) {
                        notes.addAll(restart(id));
                    }
                }
                return notes;
            }
        };
    }

    private Fault pause(int id) {
        return new Fault() {
            @Override
            public String apply() throws Exception {
                ensemble.cluster().pause(id);
                return "SIGSTOP member " + id;
            }

            @Override
            public List<String> heal() throws Exception {
                ensemble.cluster().resume(id);
                return List.of();
            }
        };
    }

    /** The member stopped (SIGTERM) and started again with its wall clock moved; the heal does the same back. */
    private Fault clock(int id) {
        return new Fault() {
            @Override
            public String apply() throws Exception {
                String spec = switch (random.nextInt(3)) {
                    case 0 -> "+" + (60 + random.nextInt(600));
                    case 1 -> "-" + (60 + random.nextInt(600));
                    default -> "+0 x" + (1.5 + random.nextInt(3) / 2.0);
                };
                ensemble.setClockForNextStart(id, spec);
                ensemble.cluster().stop(id);
                List<String> notes = restart(id);
                return "member " + id + " restarted with wall clock '" + spec + "' (seconds; xN = N times as fast)"
                        + (notes.isEmpty() ? "" : ": " + String.join("; ", notes));
            }

            @Override
            public List<String> heal() throws Exception {
                ensemble.setClockForNextStart(id, "");
                ensemble.cluster().stop(id);
                return restart(id);
            }
        };
    }

    private Fault disk(int id, String words) {
        return new Fault() {
            @Override
            public String apply() throws IOException {
                ensemble.setDiskFaults(id, words);
                return "member " + id + " disk: " + words;
            }

            @Override
            public List<String> heal() throws Exception {
                ensemble.setDiskFaults(id, "");
                List<String> notes = new ArrayList<>();
                MemberProcess member = ensemble.member(id);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (System.nanoTime() < deadline && member.isServingCandidate()
                        && !ensemble.mode(id).servesInEnsemble()) {
                    Thread.sleep(200);
                }
                if (!member.isServingCandidate()) {
                    notes.add("member " + id + " had exited under the disk fault: " + member.describe()
                            + "; last log lines: " + tail(member));
                    notes.addAll(restart(id));
                } else if (!ensemble.mode(id).servesInEnsemble()) {
                    // a member whose log failed stops serving until restarted, by design; a supervisor restarts it
                    notes.add("member " + id + " stopped serving under the disk fault and is restarted: " + tail(member));
                    notes.addAll(restart(id));
                }
                return notes;
            }
        };
    }
}
