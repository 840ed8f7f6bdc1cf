package dev.warden.server.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The member list (from zoo.cfg's server.N lines or from the dynamic config file), myid and the
 * other keys that make a server an ensemble member, applied to a {@link ServerConfig.Builder}.
 */
final class EnsembleKeys {
    /** Ensemble keys a member reads; in a standalone server they are warned about and ignored. */
    static final Set<String> MEMBER_KEYS = Set.of("initLimit", "syncLimit", "peerType", "standaloneEnabled",
            "quorumListenOnAllIPs");
    /** ZooKeeper reads a version beside server lines in zoo.cfg as hexadecimal (its QuorumMaj does). */
    /** reconfigEnabled: ZooKeeper reads it only from zoo.cfg, never as a system property. */
    static final String RECONFIG_ENABLED_KEY = "reconfigEnabled";
    static final String VERSION_KEY = "version";
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

    private EnsembleKeys() {
    }

    /**
     * Applies the ensemble keys; true if the file defines members (an ensemble, or a single line
     * run standalone). Keys it used go in {@code recognised}.
     *
     * @param zooCfg the file the properties came from, or null (then {@code <zoo.cfg>.dynamic.next}
     *               is not looked for)
     */
    static boolean apply(Properties properties, Path zooCfg, ServerConfig.Builder builder, Set<String> recognised,
                         Consumer<String> warnings) {
        String where = zooCfg == null ? "zoo.cfg" : zooCfg.toString();
        SortedMap<Long, QuorumMember> members;
        QuorumGroups groups;
        long version;
        String dynamicConfigFile = properties.getProperty(DynamicConfigFile.KEY);
        if (dynamicConfigFile != null) {
            recognised.add(DynamicConfigFile.KEY);
            dynamicConfigFile = dynamicConfigFile.trim();
            refuseMemberLinesBeside(properties, where);
            if (zooCfg != null) {
                DynamicConfigFile.refuseReconfigurationInProgress(zooCfg, dynamicConfigFile);
            }
            DynamicConfigFile dynamic = DynamicConfigFile.read(dynamicConfigFile);
            members = MemberLines.parse(dynamic.memberLines());
            groups = MemberLines.parseGroups(dynamic.memberLines(), members, DynamicConfigFile.KEY + " "
                    + dynamicConfigFile);
            refuseGroupLinesBeside(properties, where);
            version = dynamic.version();
            if (properties.getProperty(VERSION_KEY) != null) {
                recognised.add(VERSION_KEY);
                warnings.accept("ignoring '" + VERSION_KEY + "': with " + DynamicConfigFile.KEY + " the version is"
                        + " taken from the dynamic file's name (0x" + Long.toHexString(version) + ")");
            }
        } else {
            members = MemberLines.parse(properties);
            groups = MemberLines.parseGroups(properties, members, where);
            version = 0;
        }
        recognised.addAll(properties.stringPropertyNames().stream().filter(MemberLines::isHierarchicalQuorumKey)
                .toList());
        String reconfig = properties.getProperty(RECONFIG_ENABLED_KEY);
        if (reconfig != null) {
            recognised.add(RECONFIG_ENABLED_KEY);
            builder.reconfigEnabled(ConfigLoader.asBoolean(RECONFIG_ENABLED_KEY, reconfig.trim()));
        }
        String standalone = properties.getProperty("standaloneEnabled");
        boolean standaloneEnabled = standalone == null || ConfigLoader.asBoolean("standaloneEnabled", standalone.trim());
        if (members.isEmpty()) {
            if (!standaloneEnabled) {
                // ZooKeeper refuses this too: the operator said "never standalone" and gave no ensemble
                throw new ConfigException("standaloneEnabled", "standaloneEnabled=false, but "
                        + (dynamicConfigFile != null ? DynamicConfigFile.KEY + " " + dynamicConfigFile : where)
                        + " has no server.N lines: Warden would run a standalone server. Add the member lines, or"
                        + " remove standaloneEnabled=false to run standalone.");
            }
            return false;
        }
        recognised.addAll(properties.stringPropertyNames().stream().filter(MemberLines::isServerKey).toList());
        builder.standaloneEnabled(standaloneEnabled);
        recognised.addAll(MEMBER_KEYS);
        if (members.size() == 1 && standaloneEnabled) {
            QuorumMember only = members.values().iterator().next();
            warnings.accept("one server line and standaloneEnabled=true: running standalone (set "
                    + "standaloneEnabled=false for a one-member ensemble)");
            applyClientPart(properties, builder, only);
            return true;
        }
        if (dynamicConfigFile == null) {
            version = staticVersion(properties, recognised);
        }
        String initLimit = properties.getProperty("initLimit");
        if (initLimit != null) {
            builder.initLimitTicks((int) ServerConfig.Range.INIT_LIMIT.parse("initLimit", initLimit.trim()));
        }
        String listenOnAll = properties.getProperty("quorumListenOnAllIPs");
        if (listenOnAll != null) {
            builder.quorumListenOnAllIPs(ConfigLoader.asBoolean("quorumListenOnAllIPs", listenOnAll.trim()));
        }
        String syncLimit = properties.getProperty("syncLimit");
        if (syncLimit != null) {
            builder.syncLimitTicks((int) ServerConfig.Range.SYNC_LIMIT.parse("syncLimit", syncLimit.trim()));
        }
        int myId = readMyId(builder.dataDir());
        QuorumMember self = members.get((long) myId);
        if (self == null) {
            throw new ConfigException("myid", "myid " + myId + " (from " + builder.dataDir().resolve("myid")
                    + ") is not among the server lines " + members.keySet());
        }
        checkPeerType(properties.getProperty("peerType"), self);
        applyClientPart(properties, builder, self);
        builder.serverId(myId).members(members).configVersion(version).quorumGroups(groups);
        long voters = members.values().stream().filter(member -> !member.observer()).count();
        if (voters % 2 == 0) {
            warnings.accept(voters + " voting members: an even count tolerates no more failures than "
                    + (voters - 1) + " would; use an odd number");
        }
        return true;
    }

    /** With a dynamic config file, group and weight lines belong in it too. */
    private static void refuseGroupLinesBeside(Properties properties, String where) {
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (MemberLines.isHierarchicalQuorumKey(key)) {
                throw new ConfigException(key, "'" + key + "' in " + where + ": with " + DynamicConfigFile.KEY
                        + " set, group and weight lines must be in the dynamic config file with the server lines");
            }
        }
    }

    /** With a dynamic config file, member lines in zoo.cfg are refused, as ZooKeeper refuses them. */
    private static void refuseMemberLinesBeside(Properties properties, String where) {
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (MemberLines.isServerKey(key)) {
                throw new ConfigException(key, "'" + key + "' in " + where + ": with " + DynamicConfigFile.KEY
                        + " set, member lines must be in the dynamic config file, not in zoo.cfg");
            }
        }
    }

    /** The optional hexadecimal {@code version} beside zoo.cfg's member lines; 0 when absent. */
    private static long staticVersion(Properties properties, Set<String> recognised) {
        String text = properties.getProperty(VERSION_KEY);
        if (text == null) {
            return 0;
        }
        recognised.add(VERSION_KEY);
        String value = text.trim();
        String allowed = "must be the configuration version in hexadecimal, as ZooKeeper writes it";
        if (!HEX.matcher(value).matches()) {
            throw ConfigException.invalid(VERSION_KEY, value, allowed);
        }
        try {
            return Long.parseLong(value, 16);
        } catch (NumberFormatException tooLarge) {
            throw ConfigException.invalid(VERSION_KEY, value, allowed);
        }
    }

    private static void checkPeerType(String peerType, QuorumMember self) {
        if (peerType == null) {
            return;
        }
        String type = peerType.trim().toLowerCase(Locale.ROOT);
        if (!type.equals("observer") && !type.equals("participant")) {
            throw ConfigException.invalid("peerType", peerType, "must be 'participant' or 'observer'");
        }
        if (type.equals("observer") != self.observer()) {
            throw new ConfigException("peerType", "peerType=" + type + " disagrees with server." + self.id()
                    + ", which makes this member " + (self.observer() ? "an observer" : "a participant"));
        }
    }

    /** A client part on the member's own line stands in for clientPort/clientPortAddress. */
    private static void applyClientPart(Properties properties, ServerConfig.Builder builder, QuorumMember self) {
        if (!self.hasClientPort()) {
            return;
        }
        if (properties.getProperty("clientPort") == null) {
            builder.clientPort(self.clientPort());
        }
        String address = properties.getProperty("clientPortAddress");
        if (self.clientHost() != null) {
            if (address == null) {
                builder.clientPortAddress(self.clientHost());
            } else if (!address.trim().equalsIgnoreCase(self.clientHost())) {
                throw new ConfigException("clientPortAddress", "clientPortAddress=" + address.trim()
                        + " disagrees with the client address " + self.clientHost() + " of server." + self.id());
            }
        }
    }

    private static int readMyId(Path dataDir) {
        Path file = dataDir.resolve("myid");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException missing) {
            throw new ConfigException("myid", "an ensemble member needs its server id in " + file
                    + ", which does not exist", missing);
        } catch (IOException | RuntimeException unreadable) {
            throw new ConfigException("myid", "cannot read " + file + ": " + unreadable, unreadable);
        }
        String firstLine = text.lines().findFirst().orElse("").trim();
        try {
            return (int) ServerConfig.Range.MY_ID.parse("myid", firstLine);
        } catch (ConfigException bad) {
            throw new ConfigException("myid", file + " holds '" + firstLine + "': it must hold this member's "
                    + "server id, a positive number from its server.N line", bad);
        }
    }
}
