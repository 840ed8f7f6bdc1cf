package dev.warden.server.config;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.HierarchicalQuorum;
import dev.warden.consensus.MajorityQuorum;
import dev.warden.consensus.QuorumVerifier;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One configuration of an ensemble as ZooKeeper writes it: the member lines, the group and weight
 * lines of a hierarchical quorum, and its version. {@link #text()} is what {@code /zookeeper/config}
 * holds; {@link #memberText()} (without the version) is what a dynamic configuration file and a
 * reconfiguration's log entry hold.
 */
public record EnsembleConfig(SortedMap<Long, QuorumMember> members, QuorumGroups groups, long version) {
    public EnsembleConfig {
        members = Collections.unmodifiableSortedMap(new TreeMap<>(members));
        if (groups == null) {
            groups = QuorumGroups.NONE;
        }
    }

    /** Ids of the voting members (participants). */
    public Set<Long> voterIds() {
        Set<Long> ids = new TreeSet<>();
        members.values().stream().filter(m -> !m.observer()).forEach(m -> ids.add(m.id()));
        return ids;
    }

    public Set<Long> observerIds() {
        Set<Long> ids = new TreeSet<>();
        members.values().stream().filter(QuorumMember::observer).forEach(m -> ids.add(m.id()));
        return ids;
    }

    /** How the consensus core counts this configuration's quorums. */
    public QuorumVerifier verifier() {
        if (!groups.isHierarchical()) {
            return new MajorityQuorum(voterIds(), observerIds());
        }
        return new HierarchicalQuorum(groups.groups(), groups.weights(), observerIds());
    }

    /** The server lines, then group and weight lines, one per line, without the version. */
    public String memberText() {
        StringBuilder text = new StringBuilder();
        members.values().forEach(m -> text.append("server.").append(m.id()).append('=').append(m.toSpec())
                .append('\n'));
        return text.append(groups.lines()).toString();
    }

    /** What /zookeeper/config holds: the member text and {@code version=<hex>}. */
    public String text() {
        return memberText() + "version=" + Long.toHexString(version);
    }

    public EnsembleConfig withVersion(long newVersion) {
        return new EnsembleConfig(members, groups, newVersion);
    }

    /** The configuration as the consensus core carries it (the member text as its data). */
    public Configuration toConfiguration() {
        return new Configuration(version, verifier(), memberText().getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a configuration the core carries, or a reconfiguration's entry, back. */
    public static EnsembleConfig fromConfiguration(Configuration configuration) {
        return parse(new String(configuration.data(), StandardCharsets.UTF_8), configuration.version(),
                "configuration " + Long.toHexString(configuration.version()));
    }

    /**
     * Parses member text (server.N, group.N, weight.N lines; a version line is ignored, the
     * version is given) with every check a configuration file gets; errors name the line.
     */
    public static EnsembleConfig parse(String text, long version, String where) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("server", "cannot read " + where + ": " + e.getMessage(), e);
        }
        return fromProperties(properties, version, where);
    }

    /** The members, groups and weights among {@code properties}, checked. */
    static EnsembleConfig fromProperties(Properties properties, long version, String where) {
        SortedMap<Long, QuorumMember> members = MemberLines.parse(properties);
        QuorumGroups groups = MemberLines.parseGroups(properties, members, where);
        MemberLines.checkDistinctAddresses(members);
        return new EnsembleConfig(members, groups, version);
    }
}
