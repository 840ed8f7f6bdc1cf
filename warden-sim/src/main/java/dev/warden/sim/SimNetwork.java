package dev.warden.sim;

import dev.warden.consensus.ZabMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Links between members behave like TCP connections: ordered per direction, with latency. A lost
 * message breaks the connection: what was in flight on it is gone and both ends are told, as a
 * socket reset would. Messages of different links interleave freely (each message has its own
 * latency and links are served in a random order each step), so reordering happens across links,
 * never within one. Duplicates arise only where a real deployment can produce them: a sender that
 * reconnects may send again the last message it sent on the broken connection (as a connection
 * manager that re-sends its last message on reconnect does), so the receiver may see it twice.
 * Partitions block directed links (asymmetric ones too).
 */
public final class SimNetwork {
    public record Packet(long from, long to, ZabMessage message, long deliverAtMs) { }

    /**
     * Loss, duplication and latency knobs. Loss is per message; duplication is per reconnect: the
     * chance that the first message on a new connection is preceded by the old connection's last one.
     */
    public record Faults(double lossProbability, double duplicateProbability, long minLatencyMs, long maxLatencyMs) {
        public static final Faults NONE = new Faults(0, 0, 1, 3);
    }

    /** Receives what the network hands out during {@link #deliverDue}. */
    public interface Endpoint {
        void deliver(Packet packet);

        void disconnected(long member, long peer);
    }

    private final RandomGenerator random;
    private final Map<Long, Deque<Packet>> links = new TreeMap<>();
    private final Set<Long> blocked = new HashSet<>();
    private final List<long[]> pendingDisconnects = new ArrayList<>();
    private final List<Predicate<Packet>> dropRules = new ArrayList<>();
    /** Per link: the last message sent on the current connection. */
    private final Map<Long, ZabMessage> lastSent = new TreeMap<>();
    /** Per link: the last message of a broken connection, which the sender may send again on the next. */
    private final Map<Long, ZabMessage> resendable = new TreeMap<>();
    private Faults faults = Faults.NONE;
    private long sent;
    private long lost;
    private long duplicated;

    public SimNetwork(RandomGenerator random) {
        this.random = random;
    }

    private static long key(long from, long to) {
        return from << 20 | to;
    }

    public void setFaults(Faults faults) {
        this.faults = faults;
    }

    public void block(long from, long to) {
        blocked.add(key(from, to));
    }

    public void unblock(long from, long to) {
        blocked.remove(key(from, to));
    }

    public void healAll() {
        blocked.clear();
    }

    public boolean isBlocked(long from, long to) {
        return blocked.contains(key(from, to));
    }

    /** Scripted scenarios: messages matching the rule are dropped (and break their link) until the rule is removed. */
    public void addDropRule(Predicate<Packet> rule) {
        dropRules.add(rule);
    }

    public void clearDropRules() {
        dropRules.clear();
    }

    public void send(long from, long to, ZabMessage message, long nowMs) {
        sent++;
        long linkKey = key(from, to);
        Deque<Packet> queue = links.computeIfAbsent(linkKey, k -> new ArrayDeque<>());
        long latencyMs = faults.minLatencyMs()
                + random.nextLong(Math.max(1, faults.maxLatencyMs() - faults.minLatencyMs() + 1));
        long atMs = Math.max(nowMs + latencyMs, queue.isEmpty() ? 0 : queue.peekLast().deliverAtMs());
        Packet packet = new Packet(from, to, message, atMs);
        if (blocked.contains(linkKey) || random.nextDouble() < faults.lossProbability() || matchesDropRule(packet)) {
            lost++;
            breakConnection(from, to);
            return;
        }
        ZabMessage previous = resendable.remove(linkKey);
        if (previous != null && random.nextDouble() < faults.duplicateProbability()) {
            duplicated++;
            queue.add(new Packet(from, to, previous, atMs));
        }
        queue.add(packet);
        lastSent.put(linkKey, message);
    }

    private boolean matchesDropRule(Packet packet) {
        for (Predicate<Packet> rule : dropRules) {
            if (rule.test(packet)) {
                return true;
            }
        }
        return false;
    }

    /** Resets the connection between two members: both directions lose what is in flight. */
    public void breakConnection(long a, long b) {
        for (long linkKey : new long[]{key(a, b), key(b, a)}) {
            links.remove(linkKey);
            ZabMessage last = lastSent.remove(linkKey);
            if (last != null) {
                resendable.put(linkKey, last);
            }
        }
        pendingDisconnects.add(new long[]{a, b});
        pendingDisconnects.add(new long[]{b, a});
    }

    /** A member crashed: its connections reset. */
    public void dropAllOf(long member, Iterable<Long> others) {
        for (long other : others) {
            if (other != member) {
                breakConnection(member, other);
                // a crashed process forgot what it sent; only its peers may send theirs again
                resendable.remove(key(member, other));
            }
        }
    }

    /** Hands out disconnect notices, then every packet due by {@code nowMs}; links are visited in random order. */
    public void deliverDue(long nowMs, Endpoint endpoint) {
        List<long[]> notices = new ArrayList<>(pendingDisconnects);
        pendingDisconnects.clear();
        for (long[] notice : notices) {
            endpoint.disconnected(notice[0], notice[1]);
        }
        List<Long> keys = new ArrayList<>(links.keySet());
        for (int i = keys.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Long swap = keys.get(i);
            keys.set(i, keys.get(j));
            keys.set(j, swap);
        }
        for (Long linkKey : keys) {
            Deque<Packet> queue = links.get(linkKey);
            while (queue != null && !queue.isEmpty() && queue.peekFirst().deliverAtMs() <= nowMs) {
                endpoint.deliver(queue.pollFirst());
                queue = links.get(linkKey);
            }
        }
    }

    public boolean idle() {
        return links.values().stream().allMatch(Deque::isEmpty) && pendingDisconnects.isEmpty();
    }

    public long sentCount() {
        return sent;
    }

    public long lostCount() {
        return lost;
    }

    public long duplicatedCount() {
        return duplicated;
    }
}
