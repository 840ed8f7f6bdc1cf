package dev.warden.server;

import dev.warden.server.quorum.QuorumMember;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines that define an ensemble's members, wherever they are written: {@code server.N} in
 * zoo.cfg or in a dynamic config file. ZooKeeper reads every key starting with {@code server.}
 * as a member line, and switches to hierarchical (weighted) quorums as soon as any key starts
 * with {@code group} or {@code weight}; Warden follows the first rule and refuses the second.
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

    /** True for the keys that make ZooKeeper count a hierarchical quorum (group.N, weight.N). */
    static boolean isHierarchicalQuorumKey(String key) {
        return key.startsWith("group") || key.startsWith("weight");
    }

    /**
     * The refusal for a group/weight key: ignoring it would make Warden count a different
     * majority than the ZooKeeper ensemble this file was written for.
     */
    static ConfigException hierarchicalQuorumRefused(String key, String where) {
        return new ConfigException(key, "'" + key + "' in " + where + " asks for a hierarchical (weighted) quorum:"
                + " Warden counts a plain majority of the voting members and does not support group.N and"
                + " weight.N yet. Removing the group and weight lines changes the quorum rule unless every weight"
                + " is equal and there is one group.");
    }

    /** Refuses the first group/weight key in {@code properties}, naming {@code where} they came from. */
    static void refuseHierarchicalQuorum(Properties properties, String where) {
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (isHierarchicalQuorumKey(key)) {
                throw hierarchicalQuorumRefused(key, where);
            }
        }
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
