package dev.warden.sim;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.RoleChange;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.consensus.ZabConfig;
import dev.warden.consensus.ZabMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

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
    private final Map<Long, SimClient> clients = new LinkedHashMap<>();
    private final Checkers checkers = new Checkers();
    private final Set<Long> voters;
    private final Configuration initialConfiguration;
    private long reconfigRequests;
    private final SnapshotLedger ledger = new SnapshotLedger();
    private final SimClock clock = new SimClock(this::nowMs);
    private long nowMs;
    private long traceHash = 17;
    private long steps;
    private long crashes;
    private Consumer<String> log = line -> { };

    /** Where a verbose run describes faults, role changes and sync decisions (nowhere by default). */
    public void setLog(Consumer<String> log) {
        this.log = log;
    }

    private void log(String what) {
        log.accept(String.format("%8d ms  %s", nowMs, what));
    }

    public Simulation(long seed, int memberCount, int clientCount) {
        this(seed, memberCount, 0, clientCount);
    }

    /** {@code voterCount} voting members with ids 1..n, then {@code observerCount} observers. */
    public Simulation(long seed, int voterCount, int observerCount, int clientCount) {
        this(seed, voterCount, observerCount, 0, clientCount);
    }

    /**
     * {@code voterCount} voting members with ids 1..n, then {@code observerCount} observers, then
     * {@code spareCount} members outside the initial configuration: they start with it in their
     * files, follow as non-voting learners, and reconfigurations may add them.
     */
    public Simulation(long seed, int voterCount, int observerCount, int spareCount, int clientCount) {
        this(seed, voterCount, observerCount, spareCount, clientCount, "");
    }

    /**
     * As above, with {@code quorumLines} ({@code group.N} and {@code weight.N} lines, as in
     * zoo.cfg) making the initial configuration a hierarchical quorum; empty for a majority.
     */
    public Simulation(long seed, int voterCount, int observerCount, int spareCount, int clientCount,
                      String quorumLines) {
        if (voterCount < 1 || observerCount < 0 || spareCount < 0 || voterCount + observerCount + spareCount > 9) {
            throw new IllegalArgumentException("need 1..9 members, got " + voterCount + " voters, "
                    + observerCount + " observers and " + spareCount + " spares");
        }
        int configured = voterCount + observerCount;
        int memberCount = configured + spareCount;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.network = new SimNetwork(random.split());
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= memberCount; id++) {
            ids.add(id);
        }
        this.voters = Set.copyOf(ids.subList(0, voterCount));
        Set<Long> observers = Set.copyOf(ids.subList(voterCount, configured));
        this.initialConfiguration = configurationOf(voters, observers, quorumLines, 0);
        for (long id : ids) {
            ZabConfig config = new ZabConfig(id, voters, observers, 100, 10, 5, 150, 50, syncDiffBytes(seed));
            SimServer member = new SimServer(id, config, initialConfiguration, this, random.split(), clock, ledger);
            members.put(id, member);
            member.start(nowMs);
        }
        for (long c = 1; c <= clientCount; c++) {
            long memberId = ids.get((int) ((c - 1) % ids.size()));
            clients.put(c, new SimClient(c, memberId, random.split(), 2_000));
        }
    }

    /** A member line for member {@code id}: simulated members have made-up addresses the network ignores. */
    static String memberLine(long id, boolean observer) {
        return "server." + id + "=10.0.0." + id + ":2888:3888" + (observer ? ":observer" : ":participant");
    }

    /** The configuration of {@code voters} and {@code observers}, as the server writes one. */
    static Configuration configurationOf(Set<Long> voters, Set<Long> observers, long version) {
        return configurationOf(voters, observers, "", version);
    }

    /** The same, with {@code group.N}/{@code weight.N} lines making it a hierarchical quorum. */
    static Configuration configurationOf(Set<Long> voters, Set<Long> observers, String quorumLines, long version) {
        StringBuilder text = new StringBuilder();
        new java.util.TreeSet<>(voters).forEach(id -> text.append(memberLine(id, false)).append('\n'));
        new java.util.TreeSet<>(observers).forEach(id -> text.append(memberLine(id, true)).append('\n'));
        text.append(quorumLines);
        return EnsembleConfig.parse(text.toString(), version, "the simulated ensemble").toConfiguration();
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
        return knownQuorums().stream().map(dev.warden.consensus.QuorumVerifier::voters).distinct().toList();
    }

    /** The quorum rules of every configuration a member that is up knows, or has on its disk. */
    public List<dev.warden.consensus.QuorumVerifier> knownQuorums() {
        Set<dev.warden.consensus.QuorumVerifier> quorums = new java.util.LinkedHashSet<>();
        quorums.add(initialConfiguration.quorum());
        for (SimServer member : members.values()) {
            if (member.disk.committedConfiguration() != null) {
                quorums.add(member.disk.committedConfiguration().quorum());
            }
            if (member.isUp()) {
                dev.warden.consensus.Configurations known = member.peer().configurations();
                quorums.add(known.committed().quorum());
                known.logged().forEach(c -> quorums.add(c.quorum()));
            }
        }
        return List.copyOf(quorums);
    }

    /** An operator asks the serving leader (if any) for a configuration change; returns false if none serves. */
    public boolean reconfigure(ReconfigRequest request) {
        SimServer leader = leader();
        if (leader == null) {
            return false;
        }
        log("reconfig at leader " + leader.id() + ": joining " + request.joiningServers() + ", leaving "
                + request.leavingServers() + ", members " + request.newMembers());
        reconfigRequests++;
        leader.reconfigure(request);
        return true;
    }

    /** How many reconfigurations operators asked for. */
    public long reconfigRequests() {
        return reconfigRequests;
    }

    /**
     * Half the seeds cap a sync's diff at a couple of KiB, so followers that fall a few dozen
     * entries behind are sent a snapshot; the other half send any diff the log can serve. Taken
     * from the seed, not the random stream, so the other draws of a seed do not move.
     */
    static long syncDiffBytes(long seed) {
        return (seed & 1) == 0 ? 2_048 : Long.MAX_VALUE;
    }

    public long seed() {
        return seed;
    }

    public long nowMs() {
        return nowMs;
    }

    public long traceHash() {
        return traceHash;
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
        return List.copyOf(clients.values());
    }

    SplittableRandom random() {
        return random;
    }

    private void trace(long a, long b, long c) {
        traceHash = traceHash * 1_000_003L + a * 31 * 31 + b * 31 + c;
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
            trace(1, id, nowMs);
            log("crash " + id);
            crashes++;
            member.crash(tornTail);
            network.dropAllOf(id, members.keySet());
        }
    }

    public void restart(long id) {
        SimServer member = member(id);
        if (!member.isUp()) {
            trace(2, id, nowMs);
            log("restart " + id + " epochs " + member.disk.epochs() + " last " + Long.toHexString(member.disk.lastZxid()));
            if (damagedAtRest.remove(id)) {
                damagedRestarts++;
            }
            member.start(nowMs);
            log("member " + id + " " + member.recoveryDescription());
        }
    }

    // --- disk damage at rest (the member must be down) and histories given up ---

    /** Members whose files were damaged or lost since they last started. */
    private final Set<Long> damagedAtRest = new HashSet<>();
    private long snapshotsDamaged;
    private long segmentsLost;
    private long damagedRestarts;

    private SimServer downMember(long id, String what) {
        SimServer member = member(id);
        if (member.isUp()) {
            throw new IllegalStateException("cannot " + what + " of member " + id + " while it runs: crash it first");
        }
        return member;
    }

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
        SimServer member = downMember(id, "damage a snapshot");
        trace(7, id, zxid);
        log("damage snapshot " + Long.toHexString(zxid) + " of " + id);
        member.disk.damageSnapshot(zxid);
        damagedAtRest.add(id);
        snapshotsDamaged++;
    }

    /** Segment {@code index} (0 the oldest; never the newest) of a member that is down is gone. */
    public void loseLogSegment(long id, int index) {
        SimServer member = downMember(id, "lose a log segment");
        trace(8, id, index);
        log("lose log segment " + member.disk.segments().get(index).name() + " (" + index + " of "
                + member.disk.segments().size() + ") of " + id);
        member.disk.loseSegment(index);
        damagedAtRest.add(id);
        segmentsLost++;
    }

    /** True if the member's files were damaged since it last started. */
    public boolean damagedSinceStart(long id) {
        return damagedAtRest.contains(id);
    }

    /** A running member's core gives up its history (as on a digest that differs from the leader's). */
    public void abandonHistory(long id) {
        SimServer member = member(id);
        if (member.isUp()) {
            trace(9, id, nowMs);
            log("member " + id + " abandons its history");
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
        trace(3, from, to);
        log("block " + from + " -> " + to);
        network.block(from, to);
    }

    public void heal() {
        trace(4, 0, 0);
        log("heal");
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

    private final Map<String, Integer> deliveredByType = new HashMap<>();

    /** How many messages of this type have arrived so far (after holds and interceptors). */
    public int deliveredCount(Class<? extends ZabMessage> type) {
        return deliveredByType.getOrDefault(type.getSimpleName(), 0);
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
        trace(6, id, stalled ? 1 : 0);
        member(id).diskStalled = stalled;
    }

    public void setSlowDisk(long id, long maxFsyncMs) {
        member(id).slowDiskMaxMs = maxFsyncMs;
    }

    /** Drive this member as the server does, with its fsyncs in flight while it goes on (see SimServer). */
    public void setPipelined(long id, boolean pipelined) {
        member(id).pipelined = pipelined;
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
        SimClient client = clients.get(clientId);
        return client.write(members.get(client.memberId()), kind, nowMs);
    }

    public SimClient.Op clientRead(long clientId) {
        SimClient client = clients.get(clientId);
        return client.read(members.get(client.memberId()), nowMs, checkers);
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
        List<Long> ids = List.copyOf(members.keySet());
        for (SimClient client : clients.values()) {
            client.checkTimeout(nowMs, ids);
        }
        List<SimServer> all = members();
        checkers.checkPrefixes(all);
        checkers.checkDigests(all);
    }

    /** Random client activity for one step. */
    void clientActivity(double opProbability) {
        List<Long> ids = List.copyOf(members.keySet());
        for (SimClient client : clients.values()) {
            if (client.busy() || random.nextDouble() >= opProbability) {
                continue;
            }
            int pick = random.nextInt(20);
            SimServer member = members.get(client.memberId());
            if (pick < 6) {
                if (client.read(member, nowMs, checkers) == null) {
                    client.failOver(ids);
                }
            } else if (pick < 8) {
                if (!client.syncRead(member, nowMs)) {
                    client.failOver(ids);
                }
            } else if (!client.write(member, writeKind(pick), nowMs)) {
                client.failOver(ids);
            }
        }
    }

    private static SimClient.Kind writeKind(int pick) {
        if (pick < 16) {
            return SimClient.Kind.CAS;
        }
        if (pick < 18) {
            return SimClient.Kind.CREATE;
        }
        return pick == 18 ? SimClient.Kind.EPHEMERAL : SimClient.Kind.CLOSE;
    }

    // --- SimServer.World ---

    @Override
    public void send(long from, long to, ZabMessage message) {
        network.send(from, to, message, nowMs);
    }

    @Override
    public void applied(SimServer member, TreeMachine.Applied applied) {
        SimClient client = clientOfSession(applied.txn().sessionId());
        if (client != null && client.memberId() == member.id()) {
            SimClient.Op op = client.onApplied(member, applied, nowMs);
            if (op != null) {
                checkers.onCompletedOp(op);
            }
        }
    }

    /** The client whose current session this is, or null (an old session of a client counts as no one's). */
    private SimClient clientOfSession(long sessionId) {
        SimClient client = clients.get(SimClient.clientIdOf(sessionId));
        return client != null && client.sessionId() == sessionId ? client : null;
    }

    @Override
    public void syncDone(SimServer member, long token) {
        SimClient client = clients.get(token >>> 32);
        if (client != null) {
            client.syncDone(member, token, nowMs, checkers);
        }
    }

    @Override
    public void refused(SimServer member, SimRequest.Refusal refusal) {
        SimClient client = clientOfSession(refusal.sessionId());
        if (client != null && client.memberId() == member.id()) {
            client.onRefused(member, refusal, nowMs);
        }
    }

    @Override
    public void roleChanged(SimServer member, RoleChange change) {
        trace(5, member.id(), change.role().ordinal() * 1000L + change.epoch());
        log("member " + member.id() + " " + change + " last " + Long.toHexString(member.disk.lastZxid())
                + " committed " + Long.toHexString(member.peer() == null ? -1 : member.peer().committedZxid()));
        checkers.onRoleChange(member.id(), change,
                member.peer() == null ? null : member.peer().configurations().committed().quorum());
    }

    @Override
    public void configurationCommitted(SimServer member, dev.warden.consensus.Configuration configuration) {
        trace(9, member.id(), configuration.version());
        log("member " + member.id() + " committed " + configuration);
        checkers.onConfigurationCommitted(member.id(), configuration);
    }

    // --- SimNetwork.Endpoint ---

    @Override
    public void deliver(SimNetwork.Packet packet) {
        if (script.parked(packet)) {
            return;
        }
        Function<Simulation, Verdict> action = script.takeInterceptor(packet);
        if (action != null) {
            log("intercepted " + packet.from() + " -> " + packet.to() + " " + MessageText.describe(packet.message()));
            if (action.apply(this) == Verdict.DROP) {
                return;
            }
        }
        trace(packet.from() * 16 + packet.to(), packet.deliverAtMs(),
                packet.message().getClass().getSimpleName().hashCode());
        ZabMessage m = packet.message();
        deliveredByType.merge(m.getClass().getSimpleName(), 1, Integer::sum);
        if (MessageText.worthLogging(m)) {
            log(packet.from() + " -> " + packet.to() + " " + MessageText.describe(m));
        }
        members.get(packet.to()).deliver(packet.from(), packet.message());
    }

    @Override
    public void disconnected(long member, long peer) {
        members.get(member).disconnected(peer);
    }

    // --- end-of-run checks ---

    /** True when every member is up, serving, and has applied the same history as the leader. */
    public boolean converged() {
        SimServer leader = leader();
        if (leader == null) {
            return false;
        }
        for (SimServer member : members.values()) {
            if (!member.isServing() || member.machine().lastZxid() != leader.machine().lastZxid()
                    || member.peer().committedZxid() != leader.peer().committedZxid()) {
                return false;
            }
        }
        return true;
    }

    /** The final checks once converged: equal digests, acknowledged writes everywhere, linearizable writes. */
    public void checkConverged() {
        SimServer leader = leader();
        for (SimServer member : members.values()) {
            if (member.machine().digest() != leader.machine().digest()) {
                throw new Checkers.Violation("member " + member.id() + " digest differs from leader " + leader.id());
            }
            checkers.checkAckedWritesSurvive(member);
        }
        checkers.checkLinearizable();
    }

    /** Each member's role, epochs, log tail and configurations, for a failure message. */
    public String describeMembers() {
        StringBuilder out = new StringBuilder();
        for (SimServer member : members.values()) {
            out.append("member ").append(member.id());
            if (!member.isUp()) {
                out.append(" down; ");
                continue;
            }
            out.append(' ').append(member.peer().role()).append(member.isServing() ? " serving" : "")
                    .append(" leader ").append(member.peer().leaderId())
                    .append(' ').append(member.peer().epochs())
                    .append(" last ").append(Long.toHexString(member.disk.lastZxid()))
                    .append(" resync ").append(member.peer().isResyncRequired())
                    .append(" configs ").append(member.peer().configurations()).append("; ");
        }
        return out.toString();
    }

    public RandomRun.FaultCounts faultCounts() {
        long lostWrites = 0;
        long torn = 0;
        long slow = 0;
        long resyncStarts = 0;
        long startLost = 0;
        long abandoned = 0;
        for (SimServer member : members.values()) {
            lostWrites += member.disk.lostWriteCount();
            torn += member.disk.tornTailCount();
            slow += member.slowFsyncs;
            resyncStarts += member.resyncStarts;
            startLost += member.startLostStarts;
            abandoned += member.historiesAbandoned;
        }
        return new RandomRun.FaultCounts(crashes, network.lostCount(), network.duplicatedCount(), lostWrites, torn, slow,
                snapshotsDamaged, segmentsLost, damagedRestarts, startLost, resyncStarts, abandoned, reconfigRequests,
                checkers.configurationsCommitted());
    }

    public long steps() {
        return steps;
    }
}
