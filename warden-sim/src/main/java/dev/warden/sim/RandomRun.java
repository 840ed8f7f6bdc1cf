package dev.warden.sim;

import dev.warden.protocol.ReconfigRequest;
import dev.warden.server.config.EnsembleConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One seeded run: a safety phase with crashes, restarts, partitions (symmetric, one-way and a
 * rotating "swizzle" ring), message loss and duplication, slow disks, snapshots and autopurges,
 * files damaged or lost at rest and restarts on them, and histories given up ({@link DiskFaults})
 * while clients write and read, each member's log writer finishing an instant fsync either
 * before the member's next cycle or only in the next step; then a liveness phase without faults in which
 * the ensemble must elect a leader, converge and serve a new write within a bounded simulated time.
 */
public final class RandomRun {
    public static final long LIVENESS_LIMIT_MS = 60_000;
    /** Members outside the initial configuration in a run with reconfigurations. */
    static final int SPARES = 2;

    /**
     * @param brokenDriver     every member acknowledges before its fsync (for showing the checkers catch it)
     * @param trustingRecovery every member recovers with the rule from before recovery had to prove
     *                         continuity (newest valid snapshot or the empty tree, plus whatever log
     *                         there is; never a resync), for showing the checkers catch it
     */
    /**
     * @param reconfigure two spare members start outside the configuration, and an operator asks
     *                    the leader for configuration changes now and then (add, remove, voter to
     *                    observer and back, remove the leader, replace a member)
     */
    /**
     * @param observerMasters every member runs with observerMasterPort set: observers follow followers
     */
    public record Options(int members, int observers, int steps, boolean brokenDriver, boolean trustingRecovery,
                          boolean reconfigure, boolean weighted, boolean observerMasters) {
        public Options(int members, int observers, int steps, boolean brokenDriver, boolean trustingRecovery,
                       boolean reconfigure, boolean weighted) {
            this(members, observers, steps, brokenDriver, trustingRecovery, reconfigure, weighted, false);
        }

        public Options(int members, int observers, int steps, boolean brokenDriver, boolean trustingRecovery,
                       boolean reconfigure) {
            this(members, observers, steps, brokenDriver, trustingRecovery, reconfigure, false);
        }

        public Options(int members, int observers, int steps, boolean brokenDriver, boolean trustingRecovery) {
            this(members, observers, steps, brokenDriver, trustingRecovery, false);
        }

        public Options(int members, int observers, int steps, boolean brokenDriver) {
            this(members, observers, steps, brokenDriver, false);
        }

        public Options(int members, int steps, boolean brokenDriver) {
            this(members, 0, steps, brokenDriver);
        }

        public Options {
            if (observers < 0 || observers > 2) {
                throw new IllegalArgumentException("observers must be 0..2, got " + observers);
            }
            if (members != 3 && members != 5) {
                throw new IllegalArgumentException("members must be 3 or 5, got " + members);
            }
            if (steps <= 0) {
                throw new IllegalArgumentException("steps must be positive, got " + steps);
            }
        }
    }

    /**
     * How often each injected fault actually happened in a run. {@code damagedRestarts}: restarts
     * of a member whose files were damaged or lost while it was down; {@code startLostRestarts}:
     * of those, restarts with every snapshot damaged and the log's start gone; {@code resyncStarts}:
     * starts that set the history aside and required a copy from a leader; {@code historiesAbandoned}:
     * running members whose core gave up its history.
     */
    public record FaultCounts(long crashes, long lostMessages, long duplicatedMessages, long lostUnsyncedWrites,
                              long tornTails, long slowFsyncs, long snapshotsDamaged, long segmentsLost,
                              long damagedRestarts, long startLostRestarts, long resyncStarts,
                              long historiesAbandoned, long reconfigRequests, long configurationsCommitted) {
        @Override
        public String toString() {
            return crashes + " crashes, " + lostMessages + " messages lost, " + duplicatedMessages + " duplicated, "
                    + lostUnsyncedWrites + " unsynced writes lost, " + tornTails + " torn tails, " + slowFsyncs
                    + " slow fsyncs, " + snapshotsDamaged + " snapshots damaged, " + segmentsLost
                    + " log segments lost, " + damagedRestarts + " restarts on damaged data (" + startLostRestarts
                    + " with every snapshot damaged and the log's start gone), " + resyncStarts + " resync starts, "
                    + historiesAbandoned + " histories abandoned, " + reconfigRequests + " reconfigs asked, "
                    + configurationsCommitted + " configurations committed";
        }
    }

    /** {@code observersOnMasters}: observers that, at the end, followed a follower (observer masters on). */
    public record Outcome(long seed, long traceHash, int committedEntries, int acknowledgedWrites, long simulatedMs,
                          FaultCounts faults, int observersOnMasters) { }

    /** A failed run: the message says how to replay it. */
    public static final class Failure extends RuntimeException {
        public Failure(long seed, Options options, Throwable cause) {
            super("seed " + seed + " failed: " + cause.getMessage() + "\n  replay: " + replayCommand(seed, options),
                    cause);
        }
    }

    public static String replayCommand(long seed, Options options) {
        return "./warden sim --seed " + seed + " --members " + options.members() + " --observers " + options.observers()
                + " --steps " + options.steps() + (options.brokenDriver() ? " --broken-driver" : "")
                + (options.trustingRecovery() ? " --trusting-recovery" : "")
                + (options.reconfigure() ? " --reconfigure" : "") + (options.weighted() ? " --weighted" : "")
                + (options.observerMasters() ? " --observer-masters" : "") + " --verbose";
    }

    private RandomRun() {
    }

    /**
     * ZooKeeper's hierarchical quorum over the voters: two groups, the first three voters and the
     * rest, the last voter of weight 0 (it votes, never counts and never leads). A quorum needs a
     * weighted majority in both groups.
     */
    static String weightedQuorumLines(int voters) {
        if (voters < 4) {
            throw new IllegalArgumentException("a weighted run needs at least 4 voters (two groups), got " + voters);
        }
        StringBuilder second = new StringBuilder();
        for (int id = 4; id <= voters; id++) {
            second.append(second.length() == 0 ? "" : ":").append(id);
        }
        StringBuilder lines = new StringBuilder("group.1=1:2:3\ngroup.2=" + second + "\n");
        for (int id = 1; id <= voters; id++) {
            lines.append("weight.").append(id).append('=').append(id == voters ? 0 : 1).append('\n');
        }
        return lines.toString();
    }

    public static Outcome run(long seed, Options options) {
        return run(seed, options, line -> { });
    }

    public static Outcome run(long seed, Options options, Consumer<String> log) {
        Simulation sim = new Simulation(seed, options.members(), options.observers(),
                options.reconfigure() ? SPARES : 0, options.members() + 1,
                options.weighted() ? weightedQuorumLines(options.members()) : "", options.observerMasters());
        sim.setLog(log);
        try {
            safetyPhase(sim, options);
            livenessPhase(sim);
            return new Outcome(seed, sim.traceHash(), sim.checkers().historyLength(),
                    sim.checkers().ackedWriteCount(), sim.nowMs(), sim.faultCounts(), sim.observersOnMasters());
        } catch (RuntimeException | AssertionError e) {
            throw new Failure(seed, options, e);
        }
    }

    private static void safetyPhase(Simulation sim, Options options) {
        SplittableRandom random = sim.random().split();
        List<Long> ids = sim.members().stream().map(SimServer::id).toList();
        sim.network().setFaults(new SimNetwork.Faults(0.002, 0.3, 1, 20));
        for (long id : ids) {
            if (options.brokenDriver()) {
                // every ack now races its fsync; slow disks widen the window a crash can hit
                sim.breakDriverAckBeforePersist(id);
                sim.setSlowDisk(id, 20 + random.nextInt(60));
            } else if (random.nextInt(3) == 0) {
                sim.setSlowDisk(id, 1 + random.nextInt(40));
            }
            // how soon an instant fsync finishes: before the member's next cycle, or in the next step
            sim.setPipelined(id, random.nextBoolean());
            sim.setTrustingRecovery(id, options.trustingRecovery());
        }
        DiskFaults diskFaults = new DiskFaults(sim, random);
        // its own stream, so runs without reconfigurations draw exactly what they drew before
        SplittableRandom operator = options.reconfigure() ? sim.random().split() : null;
        double crashProbability = options.brokenDriver() ? 0.02 : 0.002;
        long swizzleUntilMs = -1;
        long nextSwizzleMs = 0;
        int swizzleOffset = 0;
        for (int step = 0; step < options.steps(); step++) {
            sim.clientActivity(0.2);
            double roll = random.nextDouble();
            if (roll < crashProbability) {
                sim.crash(ids.get(random.nextInt(ids.size())));
            } else if (roll < crashProbability + 0.004) {
                sim.restart(ids.get(random.nextInt(ids.size())));
            } else if (roll < crashProbability + 0.006) {
                Set<Long> side = new HashSet<>();
                for (long id : ids) {
                    if (random.nextBoolean()) {
                        side.add(id);
                    }
                }
                Set<Long> other = new HashSet<>(ids);
                other.removeAll(side);
                sim.partition(side, other);
            } else if (roll < crashProbability + 0.007) {
                long from = ids.get(random.nextInt(ids.size()));
                long to = ids.get(random.nextInt(ids.size()));
                if (from != to) {
                    sim.blockOneWay(from, to);
                }
            } else if (roll < crashProbability + 0.0075) {
                swizzleUntilMs = sim.nowMs() + 3_000;
            } else if (roll < crashProbability + 0.0105) {
                sim.heal();
            } else if (roll < crashProbability + 0.0125) {
                sim.member(ids.get(random.nextInt(ids.size()))).purge();
            } else if (roll < crashProbability + 0.0135) {
                diskFaults.damageAtRest(ids.get(random.nextInt(ids.size())));
            } else if (roll < crashProbability + 0.01375) {
                diskFaults.abandonHistory(ids.get(random.nextInt(ids.size())));
            }
            if (operator != null && operator.nextDouble() < RECONFIG_PROBABILITY) {
                reconfigure(sim, operator, ids);
            }
            if (sim.nowMs() < swizzleUntilMs && sim.nowMs() >= nextSwizzleMs) {
                swizzle(sim, ids, swizzleOffset++);
                nextSwizzleMs = sim.nowMs() + 500;
            }
            sim.step();
        }
    }

    /** A reconfiguration every 2.5 s of simulated time on average (one step is 5 ms). */
    private static final double RECONFIG_PROBABILITY = 0.002;

    /**
     * An operator's change of the leader's current configuration, drawn from the seed: add a
     * member outside it (as voter or observer), remove a member (the leader too), turn a voter
     * into an observer or back, or replace a voter by an outsider in one change. The leader may
     * refuse it (another change in progress, the new quorum not synced), as it would an operator's.
     */
    static void reconfigure(Simulation sim, SplittableRandom operator, List<Long> ids) {
        EnsembleConfig current = EnsembleConfig.fromConfiguration(sim.currentConfiguration());
        List<Long> inside = new ArrayList<>(current.members().keySet());
        List<Long> outside = new ArrayList<>(ids);
        outside.removeAll(inside);
        ReconfigRequest request;
        int pick = operator.nextInt(4);
        if (pick == 0 && !outside.isEmpty()) {
            long id = outside.get(operator.nextInt(outside.size()));
            request = new ReconfigRequest(SimConfigurations.memberLine(id, operator.nextInt(3) == 0), null, null, -1);
        } else if (pick == 1 && inside.size() > 1) {
            long id = inside.get(operator.nextInt(inside.size()));
            request = new ReconfigRequest(null, Long.toString(id), null, -1);
        } else if (pick == 2) {
            long id = inside.get(operator.nextInt(inside.size()));
            boolean observer = current.members().get(id).observer();
            request = new ReconfigRequest(SimConfigurations.memberLine(id, !observer), null, null, -1);
        } else if (!outside.isEmpty()) {
            List<Long> voters = new ArrayList<>(current.voterIds());
            long leaving = voters.get(operator.nextInt(voters.size()));
            long joining = outside.get(operator.nextInt(outside.size()));
            request = new ReconfigRequest(SimConfigurations.memberLine(joining, false), Long.toString(leaving), null,
                    current.version());
        } else {
            return;
        }
        sim.reconfigure(request);
    }

    /** A ring where each member reaches only its neighbour at a rotating distance; it changes every half second. */
    private static void swizzle(Simulation sim, List<Long> ids, int offset) {
        sim.heal();
        int n = ids.size();
        int distance = 1 + offset % Math.max(1, n / 2);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int gap = Math.floorMod(j - i, n);
                if (i != j && gap != distance && gap != n - distance) {
                    sim.blockOneWay(ids.get(i), ids.get(j));
                }
            }
        }
    }

    private static void livenessPhase(Simulation sim) {
        sim.heal();
        sim.network().setFaults(SimNetwork.Faults.NONE);
        for (SimServer member : sim.members()) {
            sim.setSlowDisk(member.id(), 0);
            sim.restart(member.id());
        }
        long startMs = sim.nowMs();
        try {
            sim.runUntil(Simulation::converged, LIVENESS_LIMIT_MS);
        } catch (Checkers.Violation notConverged) {
            throw new Checkers.Violation(notConverged.getMessage() + "; " + sim.describeMembers());
        }
        SimClient client = sim.clients().get(0);
        List<Long> ids = new ArrayList<>(sim.members().stream().map(SimServer::id).toList());
        int before = client.history().size();
        sim.runUntil(s -> !client.busy() && client.history().size() > before
                || !client.busy() && tryWrite(s, client, ids), LIVENESS_LIMIT_MS);
        sim.runUntil(s -> !client.busy() && client.history().size() > before, LIVENESS_LIMIT_MS);
        sim.runUntil(Simulation::converged, LIVENESS_LIMIT_MS);
        sim.checkConverged();
        if (sim.nowMs() - startMs > 3 * LIVENESS_LIMIT_MS) {
            throw new Checkers.Violation("liveness phase took " + (sim.nowMs() - startMs) + " ms");
        }
    }

    private static boolean tryWrite(Simulation sim, SimClient client, List<Long> ids) {
        if (!sim.clientWrite(client.id(), SimClient.Kind.CREATE)) {
            client.failOver(ids);
        }
        return false;
    }
}
