package dev.warden.sim;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.QuorumVerifier;
import dev.warden.server.config.EnsembleConfig;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The configurations and per-seed settings a simulated ensemble starts with and changes to. */
final class SimConfigurations {
    private SimConfigurations() {
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
        new TreeSet<>(voters).forEach(id -> text.append(memberLine(id, false)).append('\n'));
        new TreeSet<>(observers).forEach(id -> text.append(memberLine(id, true)).append('\n'));
        text.append(quorumLines);
        return EnsembleConfig.parse(text.toString(), version, "the simulated ensemble").toConfiguration();
    }

    /**
     * Half the seeds cap a sync's diff at a couple of KiB, so followers that fall a few dozen
     * entries behind are sent a snapshot; the other half send any diff the log can serve. Taken
     * from the seed, not the random stream, so the other draws of a seed do not move.
     */
    static long syncDiffBytes(long seed) {
        return (seed & 1) == 0 ? 2_048 : Long.MAX_VALUE;
    }

    /**
     * Every other pair of seeds runs with ZooKeeper's observer.reconnectDelayMs at 400 ms (the
     * simulated syncLimit is 500 ms): an observer that lost its leader, or went through all its
     * masters, waits a drawn time below it before it asks again. Taken from the seed, like
     * {@link #syncDiffBytes}; a seed without the delay draws nothing for it and replays as before.
     */
    static long observerReconnectDelayMs(long seed) {
        return (seed & 2) == 0 ? 0 : 400;
    }

    /** The quorum rules of every configuration a member that is up knows, or has on its disk. */
    static List<QuorumVerifier> knownQuorums(Configuration initialConfiguration, Collection<SimServer> members) {
        Set<QuorumVerifier> quorums = new LinkedHashSet<>();
        quorums.add(initialConfiguration.quorum());
        for (SimServer member : members) {
            if (member.disk.committedConfiguration() != null) {
                quorums.add(member.disk.committedConfiguration().quorum());
            }
            if (member.isUp()) {
                Configurations known = member.peer().configurations();
                quorums.add(known.committed().quorum());
                known.logged().forEach(c -> quorums.add(c.quorum()));
            }
        }
        return List.copyOf(quorums);
    }
}
