package dev.warden.server.quorum;

import dev.warden.protocol.OpCode;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.Request;
import dev.warden.state.session.SessionTracker;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A member's periodic session work: the leader expires sessions while it hears a quorum, the others report activity to it, each expires its local sessions. */
final class MemberSessionChecks {
    /** The member's logger: these lines are the member's. */
    private static final Logger log = LoggerFactory.getLogger(Member.class);

    private final long myId;
    private final ServerConfig config;
    private final Clock clock;
    private final MemberDriver driver;
    private final SessionTracker sessions;
    private final MemberApplier applier;
    /** Whether the member took the leader's role, serving or not (any thread). */
    private final BooleanSupplier leading;
    /** Whether the member is a serving leader (any thread). */
    private final BooleanSupplier servingLeader;
    /** When the session check last ran (monotonic ms), -1 before the first; timer thread only. */
    private long lastSessionTickMs = -1;
    /**
     * Set while this leader holds expiry back for want of word from a quorum (driver thread
     * only). The check that finds it in touch again expires nothing either: the activity
     * reports that came in with the renewed contact reach the session tracker only once the
     * cycle's batch is performed, after this check.
     */
    private boolean expiryHeldOutOfTouch;
    /** The leader's account of its learners, for the lines it logs as they come and go (driver thread). */
    private final LearnerContact learners;

    MemberSessionChecks(long myId, ServerConfig config, Clock clock, MemberDriver driver, SessionTracker sessions,
                        MemberApplier applier, BooleanSupplier leading, BooleanSupplier servingLeader) {
        this.myId = myId;
        this.config = config;
        this.clock = clock;
        this.driver = driver;
        this.sessions = sessions;
        this.applier = applier;
        this.leading = leading;
        this.servingLeader = servingLeader;
        this.learners = new LearnerContact(myId, config.voterIds(), config.observerIds(),
                (long) config.syncLimitTicks() * config.tickTimeMs());
    }

    /** Driver thread: the role, leader or service changed; the learners are accounted for afresh. */
    void roleChanged() {
        learners.reset();
    }

    /** Driver thread: the member serves again; expiry is no longer held back. */
    void serving() {
        expiryHeldOutOfTouch = false;
    }

    /**
     * Timer thread, every tickTime/2. Leader: expire sessions whose time is up (on the driver
     * thread, while it hears a quorum). Others: tell the leader which sessions were active.
     */
    void tick() {
        try {
            long nowMs = clock.monotonicMs();
            long sinceLastTickMs = lastSessionTickMs < 0 ? 0 : nowMs - lastSessionTickMs;
            lastSessionTickMs = nowMs;
            if (!driver.isServing()) {
                return;
            }
            expireLocalSessions();
            if (leading.getAsBoolean() && sinceLastTickMs > (long) config.syncLimitTicks() * config.tickTimeMs()) {
                // This process stood still longer than followers wait for their leader (SIGSTOP, a
                // long GC pause): the clients' silence was partly its own, and it may no longer
                // lead. Expiring now would tell reconnecting clients their session is gone though
                // the ensemble never decided so. Start every session's timeout afresh instead.
                log.warn("member {}: session checks stalled for {} ms; every session gets a fresh timeout",
                        myId, sinceLastTickMs);
                sessions.touchAllOpen();
                return;
            }
            if (leading.getAsBoolean()) {
                driver.runOnDriverThread(this::expireSessionsWhileInTouch);
            } else {
                List<Long> active = sessions.drainActive();
                if (!active.isEmpty()) {
                    driver.sendToLeader(new AppMessage.Activity(active));
                }
            }
        } catch (RuntimeException e) {
            log.error("session tick failed", e);
        }
    }

    /** Local sessions are this member's alone: it expires them itself, whatever its role. */
    private void expireLocalSessions() {
        for (long sessionId : sessions.takeExpiredLocal()) {
            log.info("expiring local session 0x{}", Long.toHexString(sessionId));
            applier.localSessionExpired(sessionId);
        }
    }

    /**
     * Driver thread: the leader expires sessions only while it hears from a quorum of voters.
     * Its followers report their sessions' activity every tickTime/2; a leader that has not
     * heard from them lacks what it needs to expire their sessions, and a closeSession it
     * proposed could not commit while it is cut off. It runs after the cycle's tick, so a
     * leader resumed after a pause longer than syncLimit has already stepped down here.
     */
    private void expireSessionsWhileInTouch() {
        if (!servingLeader.getAsBoolean()) {
            return;
        }
        for (LearnerContact.Line line : learners.update(
                driver.peersHeardWithin((long) config.syncLimitTicks() * config.tickTimeMs()))) {
            if (line.warning()) {
                log.warn(line.text());
            } else {
                log.info(line.text());
            }
        }
        if (!driver.leaderHeardQuorumWithin(contactWindowMs())) {
            if (!expiryHeldOutOfTouch) {
                log.warn("member {}: no word from a quorum of voters within {} ms; no session is expired until "
                        + "it hears one", myId, contactWindowMs());
            }
            expiryHeldOutOfTouch = true;
            return;
        }
        if (expiryHeldOutOfTouch) {
            expiryHeldOutOfTouch = false;
            log.info("member {}: hears a quorum again; session expiry resumes at the next check", myId);
            return;
        }
        for (long sessionId : sessions.takeExpired()) {
            log.info("expiring session 0x{}", Long.toHexString(sessionId));
            driver.prepareHousekeeping(new Request(null, sessionId, 0, OpCode.CLOSE_SESSION, null));
        }
    }

    /**
     * How recently a leader must have heard from a quorum to decide on its own authority: one
     * tick, two of its followers' heartbeat answers and activity reports.
     */
    long contactWindowMs() {
        return config.tickTimeMs();
    }
}
