package dev.warden.sim;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.QuorumVerifier;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.ZabConfig;
import dev.warden.consensus.ZabMessage;
import dev.warden.protocol.ReconfigRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.LongStream;

/**
 * A whole ensemble in one thread on a simulated clock, reproducible from one seed. Scripted
 * scenarios use the controls (crash, restart, partition, drop rules, runUntil); {@link RandomRun}
 * drives the same controls from the seed. Checkers run after every step.
 */
public final class Simulation implements SimServer.World, SimNetwork.Endpoint {
    public static final long STEP_MS = 5;

    private final long seed;
    private final SplittableRandom random;
    private final SimNetwork network;
    private final Map<Long, SimServer> members = new LinkedHashMap<>();
    private final Checkers checkers = new Checkers();
    private final SimClients clients;
    private final Set<Long> voters;
    private final Configuration initialConfiguration;
    private final SnapshotLedger ledger = new SnapshotLedger();
    private final SimClock clock = new SimClock(this::nowMs);
    private long nowMs;
    private long steps;
    private final FaultTally tally = new FaultTally();
    private final SimTrace events = new SimTrace(this::nowMs);
    private final AtRestDamage atRest = new AtRestDamage(events, tally);

    /** Where a verbose run describes faults, role changes and sync decisions (nowhere by default). */
    public void setLog(Consumer<String> log) {
        events.setLog(log);
    }

    /** {@code memberCount} voting members with ids 1..n and a majority quorum. */
    public Simulation(long seed, int memberCount, int clientCount) {
        this(seed, memberCount, 0, 0, clientCount, "");
    }

    public Simulation(long seed, int voterCount, int observerCount, int spareCount, int clientCount,
                      String quorumLines) {
        this(seed, voterCount, observerCount, spareCount, clientCount, quorumLines, false);
    }

    /**
     * {@code voterCount} voting members with ids 1..n, then {@code observerCount} observers, then
     * {@code spareCount} members outside the initial configuration: they start with it in their
     * files, follow as non-voting learners, and reconfigurations may add them. {@code quorumLines}
     * ({@code group.N} and {@code weight.N} lines, as in zoo.cfg) make the initial configuration a
     * hierarchical quorum; empty for a majority. {@code observerMasters}: every member runs with
     * ZooKeeper's observerMasterPort set, so observers follow followers ({@code ZabConfig}).
     */
    public Simulation(long seed, int voterCount, int observerCount, int spareCount, int clientCount,
                      String quorumLines, boolean observerMasters) {
        if (voterCount < 1 || observerCount < 0 || spareCount < 0 || voterCount + observerCount + spareCount > 9) {
            throw new IllegalArgumentException("need 1..9 members, got " + voterCount + " voters, "
                    + observerCount + " observers and " + spareCount + " spares");
        }
        int configured = voterCount + observerCount;
        int memberCount = configured + spareCount;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.network = new SimNetwork(random.split());
        this.clients = new SimClients(members, checkers, random);
        List<Long> ids = LongStream.rangeClosed(1, memberCount).boxed().toList();
        this.voters = Set.copyOf(ids.subList(0, voterCount));
        Set<Long> observers = Set.copyOf(ids.subList(voterCount, configured));
        this.initialConfiguration = SimConfigurations.configurationOf(voters, observers, quorumLines, 0);
        for (long id : ids) {
            ZabConfig config = new ZabConfig(id, voters, observers, 100, 10, 5, 150, 50,
                    SimConfigurations.syncDiffBytes(seed), observerMasters,
                    SimConfigurations.observerReconnectDelayMs(seed));
            SimServer member = new SimServer(id, config, initialConfiguration, this, random.split(), clock, ledger);
            members.put(id, member);
            member.start(nowMs);
        }
        for (long c = 1; c <= clientCount; c++) {
            long memberId = ids.get((int) ((c - 1) % ids.size()));
            clients.add(new SimClient(c, memberId, random.split(), 2_000));
        }
    }

    /** Serving observers, among the members up, that follow a member other than their leader (an observer master). */
    public int observersOnMasters() {
        return EndOfRunChecks.observersOnMasters(members.values());
    }

    public Configuration initialConfiguration() {
        return initialConfiguration;
    }

    /**
     * The serving leader's committed configuration, or the newest any member recorded if no
     * leader serves: what an operator reads from /zookeeper/config before a change.
     */
    public Configuration currentConfiguration() {
        SimServer leader = leader();
        return leader != null ? leader.peer().configurations().committed() : initialConfiguration;
    }

    /**
     * The voter sets of every configuration a member that is up knows (committed or logged), of
     * the one each member recorded committed on its disk (up or down: a member down may be the
     * only one holding the newest), and the initial one: each must keep a majority of members
     * whose history is vouched for.
     */
    public List<Set<Long>> knownVoterSets() {
        return knownQuorums().stream().map(QuorumVerifier::voters).distinct().toList();
    }

    /** The quorum rules of every configuration a member that is up knows, or has on its disk. */
    public List<QuorumVerifier> knownQuorums() {
        return SimConfigurations.knownQuorums(initialConfiguration, members.values());
    }


    /** An operator asks the serving leader (if any) for a configuration change; returns false if none serves. */
    public boolean reconfigure(ReconfigRequest request) {
        SimServer leader = leader();
        if (leader == null) {
            return false;
        }
        events.log("reconfig at leader " + leader.id() + ": joining " + request.joiningServers() + ", leaving "
                + request.leavingServers() + ", members " + request.newMembers());
        tally.reconfigRequests++;
        leader.reconfigure(request);
        return true;
    }

    /** How many reconfigurations operators asked for. */
    public long reconfigRequests() {
        return tally.reconfigRequests;
    }

    public long seed() {
        return seed;
    }

    public long nowMs() {
        return nowMs;
    }

    public long traceHash() {
        return events.hash();
    }

    public SimNetwork network() {
        return network;
    }

    public Checkers checkers() {
        return checkers;
    }

    public SimServer member(long id) {
        SimServer member = members.get(id);
        if (member == null) {
            throw new IllegalArgumentException("no member " + id);
        }
        return member;
    }

    public List<SimServer> members() {
        return List.copyOf(members.values());
    }

    public List<SimClient> clients() {
        return clients.all();
    }

    SplittableRandom random() {
        return random;
    }

    // --- controls for scripted scenarios ---

    /** Crashes a member; a random prefix of its unsynced appends may survive (a torn tail). */
    public void crash(long id) {
        crash(id, true);
    }

    /** Crashes a member; with {@code tornTail} false every write it had not synced is lost. */
    public void crash(long id, boolean tornTail) {
        SimServer member = member(id);
        if (member.isUp()) {
            events.trace(1, id, nowMs);
            events.log("crash " + id);
            tally.crashes++;
            member.crash(tornTail);
            network.dropAllOf(id, members.keySet());
        }
    }

    public void restart(long id) {
        SimServer member = member(id);
        if (!member.isUp()) {
            events.trace(2, id, nowMs);
            events.log("restart " + id + " epochs " + member.disk.epochs() + " last " + Long.toHexString(member.disk.lastZxid()));
            tally.restarted(id);
            member.start(nowMs);
            events.log("member " + id + " " + member.recoveryDescription());
        }
    }

    // --- disk damage at rest (the member must be down) and histories given up ---

    /** Restarts every member that is down. */
    public void restartAllDown() {
        for (SimServer member : members.values()) {
            if (!member.isUp()) {
                restart(member.id());
            }
        }
    }

    /** The snapshot file at {@code zxid} of a member that is down no longer verifies. */
    public void damageSnapshot(long id, long zxid) {
        atRest.damageSnapshot(member(id), zxid);
    }

    /** Segment {@code index} (0 the oldest; never the newest) of a member that is down is gone. */
    public void loseLogSegment(long id, int index) {
        atRest.loseLogSegment(member(id), index);
    }

    /** True if the member's files were damaged since it last started. */
    public boolean damagedSinceStart(long id) {
        return tally.damagedSinceStart(id);
    }

    /** A running member's core gives up its history (as on a digest that differs from the leader's). */
    public void abandonHistory(long id) {
        SimServer member = member(id);
        if (member.isUp()) {
            events.trace(9, id, nowMs);
            events.log("member " + id + " abandons its history");
            member.abandonHistory();
        }
    }

    /** Start this member with the rule from before recovery had to prove continuity (see SimRecovery.trusting). */
    public void setTrustingRecovery(long id, boolean trusting) {
        member(id).trustingRecovery = trusting;
    }

    /** Cuts every link between the two groups, both ways. */
    public void partition(Set<Long> side, Set<Long> otherSide) {
        for (long a : side) {
            for (long b : otherSide) {
                blockOneWay(a, b);
                blockOneWay(b, a);
            }
        }
    }

    /** Only messages from {@code from} to {@code to} are lost (an asymmetric partition). */
    public void blockOneWay(long from, long to) {
        events.trace(3, from, to);
        events.log("block " + from + " -> " + to);
        network.block(from, to);
    }

    public void heal() {
        events.trace(4, 0, 0);
        events.log("heal");
        network.healAll();
        network.clearDropRules();
    }

    public void dropMessages(Predicate<SimNetwork.Packet> rule) {
        network.addDropRule(rule);
    }

    /** What a scripted interceptor decides about the packet that triggered it. */
    public enum Verdict { DELIVER, DROP }

    private final PacketScript script = new PacketScript();

    /**
     * Runs {@code action} once, just before the first packet matching {@code match} arrives (for
     * example to crash a member at exactly that point); the action says whether the packet still arrives.
     */
    public void interceptOnce(Predicate<SimNetwork.Packet> match, Function<Simulation, Verdict> action) {
        script.intercept(match, action);
    }

    /** Matching packets are parked instead of delivered, until {@link #releaseHeld}. */
    public void hold(Predicate<SimNetwork.Packet> rule) {
        script.hold(rule);
    }

    /** Stops holding and delivers the parked packets, in the order they would have arrived. */
    public void releaseHeld() {
        for (SimNetwork.Packet packet : script.release()) {
            deliver(packet);
        }
    }

    /** Forgets the parked packets, as if their connection had broken. */
    public void discardHeld() {
        script.release();
    }

    /** How many messages of this type have arrived so far (after holds and interceptors). */
    public int deliveredCount(Class<? extends ZabMessage> type) {
        return script.deliveredCount(type);
    }

    public List<SimNetwork.Packet> heldPackets() {
        return script.held();
    }

    /** True if the packet is a message of this type from one member to another. */
    public static Predicate<SimNetwork.Packet> message(Class<? extends ZabMessage> type, long from, long to) {
        return p -> type.isInstance(p.message()) && p.from() == from && p.to() == to;
    }

    /** A stalled disk takes writes but never completes their fsync until un-stalled; batches without writes go on. */
    public void stallDisk(long id, boolean stalled) {
        events.trace(6, id, stalled ? 1 : 0);
        member(id).logWriter.diskStalled = stalled;
    }

    public void setSlowDisk(long id, long maxFsyncMs) {
        member(id).logWriter.slowDiskMaxMs = maxFsyncMs;
    }

    /** Drive this member as the server does, with its fsyncs in flight while it goes on (see SimServer). */
    public void setPipelined(long id, boolean pipelined) {
        member(id).logWriter.pipelined = pipelined;
    }

    /**
     * A broken member loop for checker tests: acknowledgements leave before their writes are
     * durable. A member already up restarts with it (a process restart: its disk keeps everything).
     */
    public void breakDriverAckBeforePersist(long id) {
        SimServer member = member(id);
        member.ackBeforePersist = true;
        if (member.isUp()) {
            member.start(nowMs);
        }
    }

    /** The serving leader, or null. */
    public SimServer leader() {
        for (SimServer member : members.values()) {
            if (member.isServingLeader()) {
                return member;
            }
        }
        return null;
    }

    /** Steps until the condition holds; throws if it does not within {@code maxMs} of simulated time. */
    public void runUntil(Predicate<Simulation> condition, long maxMs) {
        long deadlineMs = nowMs + maxMs;
        while (!condition.test(this)) {
            if (nowMs >= deadlineMs) {
                throw new Checkers.Violation("condition not reached within " + maxMs + " ms (at " + nowMs + " ms)");
            }
            step();
        }
    }

    public void runFor(long ms) {
        long untilMs = nowMs + ms;
        while (nowMs < untilMs) {
            step();
        }
    }

    /** Submits a write from a client through its member now; false if the member would not take it. */
    public boolean clientWrite(long clientId, SimClient.Kind kind) {
        return clients.write(clientId, kind, nowMs);
    }

    public SimClient.Op clientRead(long clientId) {
        return clients.read(clientId, nowMs);
    }

    public SimClient client(long id) {
        return clients.get(id);
    }

    /** One step: the clock moves, due messages arrive, members run, clients check timeouts, checkers run. */
    public void step() {
        steps++;
        nowMs += STEP_MS;
        network.deliverDue(nowMs, this);
        for (SimServer member : members.values()) {
            member.pump(nowMs);
        }
        clients.checkTimeouts(nowMs);
        List<SimServer> all = members();
        checkers.checkPrefixes(all);
        checkers.checkDigests(all);
    }

    /** Random client activity for one step. */
    void clientActivity(double opProbability) {
        clients.activity(opProbability, nowMs);
    }

    // --- SimServer.World ---

    @Override
    public void send(long from, long to, ZabMessage message) {
        network.send(from, to, message, nowMs);
    }

    @Override
    public void applied(SimServer member, TreeMachine.Applied applied) {
        clients.applied(member, applied, nowMs);
    }

    @Override
    public void syncDone(SimServer member, long token) {
        clients.syncDone(member, token, nowMs);
    }

    @Override
    public void refused(SimServer member, SimRequest.Refusal refusal) {
        clients.refused(member, refusal, nowMs);
    }

    @Override
    public void roleChanged(SimServer member, RoleChange change) {
        events.trace(5, member.id(), change.role().ordinal() * 1000L + change.epoch());
        events.log("member " + member.id() + " " + change + " last " + Long.toHexString(member.disk.lastZxid())
                + " committed " + Long.toHexString(member.peer() == null ? -1 : member.peer().committedZxid()));
        checkers.onRoleChange(member.id(), change,
                member.peer() == null ? null : member.peer().configurations().committed().quorum());
    }

    @Override
    public void configurationCommitted(SimServer member, dev.warden.consensus.Configuration configuration) {
        events.trace(9, member.id(), configuration.version());
        events.log("member " + member.id() + " committed " + configuration);
        checkers.onConfigurationCommitted(member.id(), configuration);
    }

    // --- SimNetwork.Endpoint ---

    @Override
    public void deliver(SimNetwork.Packet packet) {
        if (!script.admits(packet, this, events)) {
            return;
        }
        events.delivered(packet);
        script.countDelivered(packet.message());
        members.get(packet.to()).deliver(packet.from(), packet.message());
    }

    @Override
    public void disconnected(long member, long peer) {
        members.get(member).disconnected(peer);
    }

    // --- end-of-run checks ---

    /** True when every member is up, serving, and has applied the same history as the leader. */
    public boolean converged() {
        return EndOfRunChecks.converged(members.values(), leader());
    }

    /** The final checks once converged: equal digests, acknowledged writes everywhere, linearizable writes. */
    public void checkConverged() {
        EndOfRunChecks.check(members.values(), leader(), checkers);
    }

    /** Each member's role, epochs, log tail and configurations, for a failure message. */
    public String describeMembers() {
        return EndOfRunChecks.describe(members.values());
    }

    public RandomRun.FaultCounts faultCounts() {
        return tally.counts(members.values(), network, checkers);
    }

    public long steps() {
        return steps;
    }
}
