package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.ReconfigCheck;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.QuorumMember;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.PrepException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a {@code reconfig} reach the members it adds before the leader checks that the new
 * configuration's voters are synchronized. A member links only to the members of the
 * configurations it knows, so a joiner is not reached until a change naming it is logged; when
 * the members already linked are a quorum of the new configuration (3 → 5) that is enough, but
 * a one-member ensemble growing to two or three would always answer NEWCONFIGNOQUORUM. ZooKeeper
 * takes connections from any server id, so there the joiner follows before the request comes.
 * Here the leader, given a request that passes every other check but would fail for want of
 * members it has no link to, dials those members and tells them it leads (they join it as
 * non-voting learners at once, not at their next vote, an election timeout away), and
 * the request (with the later ones of its session) waits until they are synchronized, until
 * {@code syncWaitMs} (initLimit) or a third of the session's timeout has passed, whichever is
 * shorter, or at once when none of them was heard from within
 * {@code contactWaitMs} (not running: a joiner that is answers a dial within milliseconds); then
 * it is prepared as usual. Other sessions' writes go on meanwhile. The request's session waits
 * with it (its pings are answered in order behind it), so the contact wait is kept short: a tick,
 * under the read timeout of the shortest session ZooKeeper allows with the default ticks (two
 * ticks), but at least {@link #MIN_CONTACT_WAIT_MS}, the time a joiner started a moment before the
 * request may take on a loaded machine to answer. Runs on the driver thread.
 */
final class JoinerReach implements LeaderPrep.ReconfigGate {
    private static final Logger log = LoggerFactory.getLogger(JoinerReach.class);
    /** The shortest wait to hear from a joiner at all. */
    static final long MIN_CONTACT_WAIT_MS = 1_000;
    /** How often the leader tells joiners not heard from yet that it leads (a link may still be opening). */
    private static final long ANNOUNCE_EVERY_MS = 50;

    private final ConsensusCore core;
    private final LeaderReconfig reconfig;
    /** Dials members outside every known configuration (an empty map: no longer). */
    private final Consumer<Map<Long, QuorumMember>> dial;
    /** The members heard from within a window of ms. */
    private final LongFunction<Set<Long>> heardWithin;
    private final long contactWaitMs;
    private final long syncWaitMs;
    /** The configuration the waiting request asks for; null when nothing waits. */
    private Configuration awaited;
    private Set<Long> awaitedJoiners = Set.of();
    /** When the wait started; -1 until the first check after the request came. */
    private long startedAtMs = -1;
    private long announcedAtMs = -1;
    /** How long the waiting request may wait in all: initLimit, or less for a session with a short timeout. */
    private long waitMs;

    JoinerReach(ConsensusCore core, LeaderReconfig reconfig, Consumer<Map<Long, QuorumMember>> dial,
                LongFunction<Set<Long>> heardWithin, long contactWaitMs, long syncWaitMs) {
        this.core = core;
        this.reconfig = reconfig;
        this.dial = dial;
        this.heardWithin = heardWithin;
        this.contactWaitMs = contactWaitMs;
        this.syncWaitMs = syncWaitMs;
    }

    /**
     * True if {@code request} must wait for members it adds: every check before the quorum check
     * passes, the voters synchronized now are no quorum of the new configuration, and some of its
     * members are in no configuration this leader knows. Those are dialled from now on.
     */
    @Override
    public boolean mustWait(ReconfigRequest request, AuthIdentities who, long maxWaitMs) {
        EnsembleConfig next;
        try {
            next = reconfig.validate(request, false);
        } catch (PrepException refused) {
            return false; // prepare gives the same answer
        }
        if (!reconfig.permits(who)) {
            return false; // nobody is dialled for a request its sender may not make; prepare answers it
        }
        Configuration proposed = next.toConfiguration();
        if (core.checkReconfig(proposed) != ReconfigCheck.NO_QUORUM) {
            return false;
        }
        Map<Long, QuorumMember> unlinked = new HashMap<>(next.members());
        Configurations known = core.configurations();
        unlinked.keySet().removeAll(EnsembleConfig.fromConfiguration(known.committed()).members().keySet());
        for (Configuration logged : known.logged()) {
            unlinked.keySet().removeAll(EnsembleConfig.fromConfiguration(logged).members().keySet());
        }
        if (unlinked.isEmpty()) {
            return false;
        }
        waitMs = Math.min(syncWaitMs, maxWaitMs);
        log.info("reconfig waits up to {} ms for members {} to connect and synchronize before its quorum check",
                waitMs, unlinked.keySet());
        awaited = proposed;
        awaitedJoiners = Set.copyOf(unlinked.keySet());
        startedAtMs = -1;
        announcedAtMs = -1;
        dial.accept(unlinked);
        return true;
    }

    /** True once the waiting request may be prepared: the new voters are synchronized, or the wait is over. */
    @Override
    public boolean waitOver(long nowMs) {
        if (awaited == null) {
            return true;
        }
        if (startedAtMs < 0) {
            startedAtMs = nowMs;
        }
        if (core.checkReconfig(awaited) != ReconfigCheck.NO_QUORUM) {
            awaited = null;
            return true;
        }
        long waitedMs = nowMs - startedAtMs;
        Set<Long> heard = heardWithin.apply(waitedMs + 1);
        if (announcedAtMs < 0 || nowMs - announcedAtMs >= ANNOUNCE_EVERY_MS) {
            announcedAtMs = nowMs;
            for (long joiner : awaitedJoiners) {
                if (!heard.contains(joiner)) {
                    core.announceLeadershipTo(joiner);
                }
            }
        }
        if (waitedMs >= contactWaitMs && java.util.Collections.disjoint(heard, awaitedJoiners)) {
            log.info("reconfig: none of members {} answered within {} ms", awaitedJoiners, contactWaitMs);
        } else if (waitedMs >= waitMs) {
            log.info("reconfig: members {} did not synchronize within {} ms", awaitedJoiners, waitMs);
        } else {
            return false;
        }
        awaited = null;
        return true;
    }

    /**
     * The waiting request was prepared (or refused): the members dialled for it stay linked only
     * if its change is now on its way to the log, which links them as members.
     */
    @Override
    public void prepared() {
        if (!reconfig.changeInProgress()) {
            dial.accept(Map.of());
        }
    }

    /** Leadership ended: nothing waits, nobody is dialled for a request. */
    @Override
    public void reset() {
        awaited = null;
        dial.accept(Map.of());
    }
}
