package dev.warden.server.config;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines that define an ensemble's members, wherever they are written: {@code server.N} in
 * zoo.cfg or in a dynamic config file. ZooKeeper reads every key starting with {@code server.}
 * as a member line, and switches to hierarchical (weighted) quorums as soon as any key starts
 * with {@code group} or {@code weight}; Warden follows both rules.
 */
final class MemberLines {
    private static final String SERVER_PREFIX = "server.";
    private static final Pattern SERVER_LINE = Pattern.compile("server\\.(\\d+)");

    private MemberLines() {
    }

    /** True for the keys ZooKeeper reads as a member line. */
    static boolean isServerKey(String key) {
        return key.startsWith(SERVER_PREFIX);
    }

    private static final Pattern GROUP_LINE = Pattern.compile("group\\.(\\d+)");
    private static final Pattern WEIGHT_LINE = Pattern.compile("weight\\.(\\d+)");

    /** True for the keys that make ZooKeeper count a hierarchical quorum (group.N, weight.N). */
    static boolean isHierarchicalQuorumKey(String key) {
        return key.startsWith("group") || key.startsWith("weight");
    }

    /**
     * The {@code group.N=a:b:c} and {@code weight.N=w} lines of {@code properties}, checked
     * against {@code members}: every participant in exactly one group, only participants in
     * groups, weights whole numbers of at least 0 for participants, and some weight above 0.
     * Without group lines a quorum is a majority, and weight lines alone are refused.
     */
    static QuorumGroups parseGroups(Properties properties, SortedMap<Long, QuorumMember> members, String where) {
        SortedMap<Long, Set<Long>> groups = new TreeMap<>();
        SortedMap<Long, Long> weights = new TreeMap<>();
        Map<Long, String> groupOfMember = new TreeMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (!isHierarchicalQuorumKey(key)) {
                continue;
            }
            String value = properties.getProperty(key).trim();
            Matcher group = GROUP_LINE.matcher(key);
            Matcher weight = WEIGHT_LINE.matcher(key);
            if (group.matches()) {
                long groupId = number(key, value, group.group(1), "the group id");
                Set<Long> ids = new TreeSet<>();
                for (String part : value.split(":", -1)) {
                    long id = number(key, value, part.trim(), "each member of a group (ids separated by ':')");
                    QuorumMember member = members.get(id);
                    if (member == null) {
                        throw ConfigException.invalid(key, value, "server " + id + " has no server." + id + " line");
                    }
                    if (member.observer()) {
                        throw ConfigException.invalid(key, value, "server " + id + " is an observer: only"
                                + " participants vote, so only they go in groups");
                    }
                    String earlier = groupOfMember.put(id, key);
                    if (earlier != null) {
                        throw ConfigException.invalid(key, value, "server " + id + " is already in " + earlier
                                + ": groups must not overlap");
                    }
                    ids.add(id);
                }
                groups.put(groupId, ids);
            } else if (weight.matches()) {
                long id = number(key, value, weight.group(1), "the server id");
                QuorumMember member = members.get(id);
                if (member == null || member.observer()) {
                    throw ConfigException.invalid(key, value, "weights are for participants, and server " + id
                            + (member == null ? " has no server." + id + " line" : " is an observer"));
                }
                weights.put(id, number(key, value, value, "a weight (a whole number, 0 or more)"));
            } else {
                throw ConfigException.invalid(key, value, "a hierarchical quorum is written group.N=a:b:c and"
                        + " weight.N=w with N a number");
            }
        }
        if (groups.isEmpty()) {
            if (!weights.isEmpty()) {
                throw new ConfigException(weights.firstKey() == null ? "weight" : "weight." + weights.firstKey(),
                        "weight lines in " + where + " but no group lines: weights count within groups"
                        + " (group.N=a:b:c); add the groups, or remove the weights for a plain majority");
            }
            return QuorumGroups.NONE;
        }
        for (QuorumMember member : members.values()) {
            if (!member.observer() && !groupOfMember.containsKey(member.id())) {
                throw new ConfigException("group", "server." + member.id() + " is a participant in no group of "
                        + where + ": with group lines every participant must be in exactly one group");
            }
        }
        long total = 0;
        for (QuorumMember member : members.values()) {
            if (!member.observer()) {
                total += weights.getOrDefault(member.id(), 1L);
            }
        }
        if (total == 0) {
            throw new ConfigException("weight", "every participant of " + where + " has weight 0: no quorum could"
                    + " ever form");
        }
        return new QuorumGroups(groups, weights);
    }

    private static long number(String key, String value, String text, String what) {
        try {
            long n = Long.parseLong(text);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException bad) {
            // reported below
        }
        throw ConfigException.invalid(key, value, what + " must be a whole number, not '" + text + "'");
    }

    /**
     * Without multiAddress.enabled=true a server line must give one address, as ZooKeeper
     * requires: a line with several (a|b) is refused, naming the line and the key that allows it.
     */
    static void refuseSeveralAddresses(Map<Long, QuorumMember> members, boolean multiAddressEnabled) {
        if (multiAddressEnabled) {
            return;
        }
        for (QuorumMember member : members.values()) {
            if (member.hasSeveralAddresses()) {
                String key = "server." + member.id();
                throw new ConfigException(key, key + "=" + member.toSpec() + " lists " + member.addresses().size()
                        + " addresses, which needs multiAddress.enabled=true: set it on every member (ZooKeeper"
                        + " 3.6 and later read it too), or give the line one address");
            }
        }
    }

    /** The address checks of every member list: no host:port twice, at least one participant. */
    static void checkDistinctAddresses(SortedMap<Long, QuorumMember> members) {
        ServerConfigChecks.checkMemberAddresses(members);
    }

    /**
     * Parses every {@code server.N} key of {@code properties} into a member. A key that starts
     * with {@code server.} but names no number, or two keys naming one id ({@code server.1} and
     * {@code server.01}), are refused with the key named.
     */
    static SortedMap<Long, QuorumMember> parse(Properties properties) {
        SortedMap<Long, QuorumMember> members = new TreeMap<>();
        Map<Long, String> keyOfId = new TreeMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (!isServerKey(key)) {
                continue;
            }
            String value = properties.getProperty(key);
            Matcher m = SERVER_LINE.matcher(key);
            if (!m.matches()) {
                throw ConfigException.invalid(key, value, "a member line is server.N with N the member's"
                        + " numeric id");
            }
            long id;
            try {
                id = Long.parseLong(m.group(1));
            } catch (NumberFormatException tooLong) {
                throw ConfigException.invalid(key, value, "the server id is too large");
            }
            String earlier = keyOfId.put(id, key);
            if (earlier != null) {
                throw new ConfigException(key, "both " + earlier + " and " + key + " define server " + id
                        + ": each id may appear once");
            }
            members.put(id, QuorumMember.parse(id, value));
        }
        return members;
    }
}
