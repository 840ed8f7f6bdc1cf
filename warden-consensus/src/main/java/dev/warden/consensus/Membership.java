package dev.warden.consensus;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The configurations one member knows: the committed one it acts on (who it is, who may lead)
 * and the configuration entries in its log not known committed. Every count is made against all
 * of them at once ({@link #isQuorum}): a configuration entry and everything after it commit only
 * with a quorum of the old configuration and a quorum of the new, and a new configuration is
 * acted on only once its entry is committed, so two disjoint sets of members can never both
 * commit (Shraer et al., "Dynamic Reconfiguration of Primary/Backup Clusters", USENIX ATC 2012).
 */
final class Membership {
    private final ConfigEntryCodec codec;
    private Configuration committed;
    /** Logged configuration entries not known committed, by version (their zxid). */
    private final TreeMap<Long, Configuration> logged = new TreeMap<>();
    /** Set when the committed configuration changed; the peer reacts once and clears it. */
    private boolean activated;
    /** Counts every change of what this member knows (committed or logged), for drivers that follow it. */
    private long changes;

    Membership(Configurations start, ConfigEntryCodec codec) {
        this.codec = codec;
        this.committed = start.committed();
        for (Configuration c : start.logged()) {
            logged.put(c.version(), c);
        }
    }

    Configuration committed() {
        return committed;
    }

    Configurations snapshot() {
        return new Configurations(committed, List.copyOf(logged.values()));
    }

    /** What a member synchronized up to {@code upToZxid} should know: the committed one and those logged up to there. */
    Configurations upTo(long upToZxid) {
        return new Configurations(committed, List.copyOf(logged.headMap(upToZxid, true).values()));
    }

    boolean hasLogged() {
        return !logged.isEmpty();
    }

    /** Versions (zxids) of the configuration entries not known committed, oldest first. */
    Set<Long> loggedVersions() {
        return logged.navigableKeySet();
    }

    Configuration latest() {
        return logged.isEmpty() ? committed : logged.lastEntry().getValue();
    }

    /** True if {@code ids} hold a quorum of the committed configuration and of every logged one. */
    boolean isQuorum(Set<Long> ids) {
        if (!committed.quorum().containsQuorum(ids)) {
            return false;
        }
        for (Configuration c : logged.values()) {
            if (!c.quorum().containsQuorum(ids)) {
                return false;
            }
        }
        return true;
    }

    /**
     * True if {@code ids} hold a quorum of the committed configuration and of every logged one, and
     * the members among them that kept their history ({@code ids} less {@code resyncing}) meet every
     * quorum of each: every entry a quorum acknowledged is then held by one of them. A member that
     * set its history aside still counts toward the quorum (its promise binds it), but a quorum
     * whose only link to some committed entry is such a member could lose that entry. With no
     * resyncing member among {@code ids} this is {@link #isQuorum}: two quorums always meet.
     */
    boolean vouchesForHistory(Set<Long> ids, Set<Long> resyncing) {
        if (!isQuorum(ids)) {
            return false;
        }
        Set<Long> keptHistory = new HashSet<>(ids);
        keptHistory.removeAll(resyncing);
        if (someQuorumAvoids(committed, keptHistory)) {
            return false;
        }
        for (Configuration c : logged.values()) {
            if (someQuorumAvoids(c, keptHistory)) {
                return false;
            }
        }
        return true;
    }

    /** True if some quorum of {@code c} avoids {@code ids}: the voters outside {@code ids} are a quorum themselves. */
    private static boolean someQuorumAvoids(Configuration c, Set<Long> ids) {
        Set<Long> others = new HashSet<>(c.quorum().voters());
        others.removeAll(ids);
        return c.quorum().containsQuorum(others);
    }

    /** True if {@code ids} hold a quorum of the committed configuration and of those logged up to {@code zxid}. */
    boolean isQuorumFor(Set<Long> ids, long zxid) {
        if (!committed.quorum().containsQuorum(ids)) {
            return false;
        }
        for (Configuration c : logged.headMap(zxid, true).values()) {
            if (!c.quorum().containsQuorum(ids)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every voter of weight above 0 in every configuration known: the members whose votes can
     * count; when all of them agree, nobody is missing.
     */
    Set<Long> allVoters() {
        Set<Long> all = new TreeSet<>();
        addWeighted(all, committed);
        for (Configuration c : logged.values()) {
            addWeighted(all, c);
        }
        return all;
    }

    private static void addWeighted(Set<Long> into, Configuration c) {
        for (Long id : c.quorum().voters()) {
            if (c.quorum().weight(id) > 0) {
                into.add(id);
            }
        }
    }

    /** Every member of every configuration known, sorted, without {@code myId}. */
    List<Long> othersThan(long myId) {
        Set<Long> all = new TreeSet<>();
        all.addAll(committed.quorum().voters());
        all.addAll(committed.quorum().observers());
        for (Configuration c : logged.values()) {
            all.addAll(c.quorum().voters());
            all.addAll(c.quorum().observers());
        }
        all.remove(myId);
        return List.copyOf(all);
    }

    /** True if {@code id} votes in the committed configuration (what the member acts on). */
    boolean isVoter(long id) {
        return committed.quorum().isVoter(id);
    }

    boolean isObserver(long id) {
        return committed.quorum().isObserver(id);
    }

    /** May lead: a voter of weight above 0 in the committed configuration. */
    boolean mayLead(long id) {
        return committed.quorum().mayLead(id);
    }

    /** Checks a logged entry; returns its configuration (versioned by its zxid) if it is a configuration change. */
    Configuration onLogged(Entry entry) {
        Configuration found = codec.configurationIn(entry);
        if (found == null || entry.zxid() <= committed.version()) {
            // not a change, or one already known committed (logged again after a SNAP or TRUNC)
            return found;
        }
        Configuration versioned = found.version() == entry.zxid() ? found : found.withVersion(entry.zxid());
        logged.put(entry.zxid(), versioned);
        changes++;
        return versioned;
    }

    /** True if {@code entry} is a configuration change (without recording it). */
    boolean isConfigurationEntry(Entry entry) {
        return codec.configurationIn(entry) != null;
    }

    /** Everything up to {@code zxid} is committed: the configurations logged up to there take effect. */
    void committedUpTo(long zxid) {
        Map.Entry<Long, Configuration> newest = logged.floorEntry(zxid);
        if (newest == null) {
            return;
        }
        committed = newest.getValue();
        logged.headMap(zxid, true).clear();
        activated = true;
        changes++;
    }

    /**
     * Another member says the configuration change at {@code version} committed. If we logged
     * that change, ours is the committed one (a zxid names one entry: no two leaders propose the
     * same zxid), so it takes effect here as it would at a COMMIT; without it we know nothing of
     * its members and wait to be synchronized. Returns true if the committed configuration changed.
     */
    boolean learnCommitted(long version) {
        Configuration known = logged.get(version);
        if (known == null || version <= committed.version()) {
            return false;
        }
        committed = known;
        logged.headMap(version, true).clear();
        activated = true;
        changes++;
        return true;
    }

    /** The log was cut after {@code zxid}: configuration entries past it are gone. */
    void truncatedAfter(long zxid) {
        if (logged.higherKey(zxid) != null) {
            logged.tailMap(zxid, false).clear();
            changes++;
        }
    }

    /** The log was replaced by a snapshot: its configuration entries are gone (the leader tells ours at NEWLEADER). */
    void logReplaced() {
        if (!logged.isEmpty()) {
            logged.clear();
            changes++;
        }
    }

    /**
     * The leader's view at synchronization, which covers what our log now holds. A committed
     * configuration we know that is newer than the leader's stays (the leader merely has not
     * learned of its commit yet; it holds it as logged). At the same version the leader's is taken
     * only when it counts quorums differently (members started with different member lists);
     * addresses alone may differ between members (each names the others as it reaches them, as
     * behind NAT or a relay), and ZooKeeper keeps each member's own then too.
     */
    void adopt(Configurations leaders) {
        if (leaders.committed().version() > committed.version()
                || leaders.committed().version() == committed.version()
                        && !leaders.committed().sameQuorumAs(committed)) {
            committed = leaders.committed();
            activated = true;
        }
        logged.clear();
        for (Configuration c : leaders.logged()) {
            if (c.version() > committed.version()) {
                logged.put(c.version(), c);
            }
        }
        changes++;
    }

    long changes() {
        return changes;
    }

    /** True once after the committed configuration changed. */
    boolean takeActivated() {
        boolean was = activated;
        activated = false;
        return was;
    }

}
