package dev.warden.server.quorum;

import dev.warden.consensus.Outbound;
import dev.warden.consensus.Ready;
import dev.warden.consensus.Received;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.Clock;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's duty cycle: one thread that owns the consensus core. Other threads only queue
 * events (peer messages, proposals, sync requests); each cycle takes everything queued, reads
 * the clock once, ticks the core, feeds it the events and then performs its Ready batches in
 * their prescribed order. Because a cycle handles all that queued up meanwhile, proposals,
 * acknowledgements and fsyncs batch by themselves under load (group commit).
 *
 * <p>The core is never told a batch is done unless every write in it reached the disk: if the
 * log cannot be written, the driver stops (it acknowledges nothing more) and reports the
 * failure so the member stops serving.
 */
public final class MemberDriver implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MemberDriver.class);

    private sealed interface Event permits PeerMessage, PeerDown, Propose, ToLeader, ToMember, Sync, Chore, Stop {
    }

    private record PeerMessage(long from, ZabMessage message) implements Event {
    }

    private record PeerDown(long peerId) implements Event {
    }

    private record Propose(long zxid, byte[] payload) implements Event {
    }

    private record ToLeader(byte[] payload) implements Event {
    }

    private record ToMember(long peerId, byte[] payload) implements Event {
    }

    private record Sync(long token) implements Event {
    }

    private record Chore(Runnable body) implements Event {
    }

    private record Stop() implements Event {
    }

    private final ConsensusCore core;
    private final PeerSender sender;
    private final DriverEffects effects;
    private final Clock clock;
    private final long idlePollMs;
    private final BlockingQueue<Event> inbox;
    /**
     * Events the driver thread gives itself (a proposal its prep step made, a chore it queued):
     * never through the bounded inbox, whose back-pressure would make the thread wait on itself.
     */
    private final ArrayDeque<Event> ownEvents = new ArrayDeque<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Role role = Role.LOOKING;
    private volatile boolean serving;
    private volatile long leaderId = -1;
    /** When each peer was last heard from (driver clock), for the leader's admin figures. */
    private final Map<Long, Long> lastHeardMs = new ConcurrentHashMap<>();
    private volatile long lastCycleMs;

    /**
     * @param idlePollMs      longest wait for an event before the core is ticked anyway
     * @param inboxCapacity   bound on queued events; producers wait when it is full
     */
    public MemberDriver(ConsensusCore core, PeerSender sender, DriverEffects effects, Clock clock, long idlePollMs,
                        int inboxCapacity, String threadName) {
        this.core = core;
        this.sender = sender;
        this.effects = effects;
        this.clock = clock;
        this.idlePollMs = Math.max(1, idlePollMs);
        this.inbox = new ArrayBlockingQueue<>(inboxCapacity);
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    // ---- called from other threads ------------------------------------------------------------

    public void peerMessage(long from, ZabMessage message) {
        offer(new PeerMessage(from, message));
    }

    public void peerDisconnected(long peerId) {
        offer(new PeerDown(peerId));
    }

    /** Leader: replicate the txn with this zxid (zxids in order, from one thread). */
    public void propose(long zxid, byte[] payload) {
        offer(new Propose(zxid, payload));
    }

    public void sendToLeader(byte[] payload) {
        offer(new ToLeader(payload));
    }

    public void sendTo(long peerId, byte[] payload) {
        offer(new ToMember(peerId, payload));
    }

    public void sync(long token) {
        offer(new Sync(token));
    }

    /**
     * Runs {@code body} on the driver thread between events (work on state only the core's thread
     * may touch). From the driver thread itself it runs in the next cycle, which follows at once.
     */
    public void runOnDriverThread(Runnable body) {
        offer(new Chore(body));
    }

    public Role role() {
        return role;
    }

    public boolean isServing() {
        return serving;
    }

    public long leaderId() {
        return leaderId;
    }

    /** Peers heard from within the last {@code windowMs}. */
    public Set<Long> peersHeardWithin(long windowMs) {
        long since = lastCycleMs - windowMs;
        Set<Long> heard = new TreeSet<>();
        lastHeardMs.forEach((id, atMs) -> {
            if (atMs >= since) {
                heard.add(id);
            }
        });
        return heard;
    }

    public boolean isRunning() {
        return running;
    }

    private void offer(Event event) {
        if (!running) {
            return;
        }
        if (Thread.currentThread() == thread) {
            ownEvents.add(event);
            return;
        }
        try {
            // A full inbox pushes back on whoever produces faster than the core can work.
            while (running && !inbox.offer(event, 100, TimeUnit.MILLISECONDS)) {
                Thread.onSpinWait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- the duty cycle ---------------------------------------------------------------------

    private void run() {
        List<Event> events = new ArrayList<>();
        try {
            while (running) {
                events.addAll(ownEvents);
                ownEvents.clear();
                Event first = events.isEmpty() ? inbox.poll(idlePollMs, TimeUnit.MILLISECONDS) : inbox.poll();
                if (first != null) {
                    events.add(first);
                    inbox.drainTo(events);
                }
                long nowMs = clock.monotonicMs();
                lastCycleMs = nowMs;
                core.tick(nowMs);
                for (Event event : events) {
                    if (event instanceof Stop) {
                        running = false;
                        break;
                    }
                    feed(event);
                }
                events.clear();
                while (running && core.hasReady()) {
                    perform(core.ready());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            running = false;
            serving = false;
            log.error("{}: cannot write its log or epochs ({}); it stops acknowledging and serving "
                    + "and leaves the ensemble until restarted", thread.getName(), e.toString());
            effects.failed("storage failure: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            // An Error too (OutOfMemoryError above all): a member whose driver died must not go
            // on holding client connections as if it still led or followed.
            running = false;
            serving = false;
            log.error("{}: the driver failed; the member stops serving", thread.getName(), e);
            effects.failed("driver failure: " + e, e);
        }
    }

    private void feed(Event event) {
        if (event instanceof PeerMessage m) {
            lastHeardMs.put(m.from(), lastCycleMs);
            core.receive(m.from(), m.message());
        } else if (event instanceof PeerDown d) {
            core.peerDisconnected(d.peerId());
        } else if (event instanceof Propose p) {
            if (!core.propose(p.zxid(), p.payload())) {
                log.debug("proposal {} refused: no longer a serving leader", Long.toHexString(p.zxid()));
            }
        } else if (event instanceof ToLeader t) {
            if (!core.sendToLeader(t.payload())) {
                log.debug("no serving leader for a forwarded message");
            }
        } else if (event instanceof ToMember t) {
            core.sendTo(t.peerId(), t.payload());
        } else if (event instanceof Chore c) {
            c.body().run();
        } else if (event instanceof Sync s) {
            if (!core.sync(s.token())) {
                effects.syncRefused(s.token());
            }
        }
    }

    /** Performs one Ready batch in the order {@link Ready} documents, then advances the core. */
    private void perform(Ready ready) throws IOException {
        if (ready.roleChange() != null) {
            role = ready.roleChange().role();
            leaderId = ready.roleChange().leaderId();
            serving = ready.roleChange().serving();
            long nextZxid = role == Role.LEADING && serving ? core.nextZxid() : -1;
            effects.roleChanged(ready.roleChange(), nextZxid);
        }
        send(ready.sendImmediately());
        if (ready.epochs() != null) {
            effects.saveEpochs(ready.epochs());
        }
        if (ready.truncateAfterZxid() >= 0) {
            effects.truncateAfter(ready.truncateAfterZxid());
        }
        if (ready.snapshot() != null) {
            effects.installSnapshot(ready.snapshot());
        }
        if (!ready.entriesToPersist().isEmpty()) {
            effects.persist(ready.entriesToPersist());
        }
        send(ready.sendAfterPersist());
        if (!ready.committed().isEmpty()) {
            effects.committed(ready.committed());
        }
        for (Received received : ready.received()) {
            effects.received(received);
        }
        if (!ready.syncsDone().isEmpty()) {
            effects.syncsDone(ready.syncsDone());
        }
        core.advance(ready);
    }

    private void send(List<Outbound> messages) {
        if (!messages.isEmpty()) {
            sender.sendAll(messages);
        }
    }

    /** Stops the cycle after the events already queued; waits for the thread. */
    @Override
    public void close() {
        if (running) {
            inbox.offer(new Stop());
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running = false;
    }
}
