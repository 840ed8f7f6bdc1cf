package dev.warden.cli.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes one member's zoo.cfg and myid (and, if the spec asks for one, its dynamic config file),
 * in the format both Warden and ZooKeeper read.
 */
public final class ZooCfg {
    static final String HOST = "127.0.0.1";
    /** The words the cluster itself needs; srvr tells the mode, mntr and ruok help a reader of logs. */
    static final String FOUR_LETTER_WORDS = "srvr,mntr,ruok";
    /** ZooKeeper's name for a dynamic config file; the version in hexadecimal follows. */
    static final String DYNAMIC_FILE_PREFIX = "zoo.cfg.dynamic.";

    private ZooCfg() {
    }

    /**
     * True when {@code extraConfigLines} turn the AdminServer on and leave its port to the
     * default: the members then need a port each, since they share one address.
     */
    static boolean needsAdminPorts(List<String> extraConfigLines) {
        boolean enabled = false;
        for (String line : extraConfigLines) {
            int equals = line.indexOf('=');
            if (equals < 0) {
                continue;
            }
            String key = line.substring(0, equals).trim();
            String value = line.substring(equals + 1).trim();
            if (key.equals("admin.serverPort")) {
                return false;
            }
            if (key.equals("admin.enableServer")) {
                enabled = value.equalsIgnoreCase("true");
            }
        }
        return enabled;
    }

    /** The zoo.cfg text of member {@code id}, with the member lines in it; {@code portsById} holds every member. */
    public static String render(ClusterSpec spec, int id, Path dataDir, Map<Integer, MemberPorts> portsById) {
        return render(spec, id, dataDir, portsById, null);
    }

    /**
     * The zoo.cfg text of member {@code id}; {@code portsById} holds every member. With
     * {@code dynamicConfigFile} not null, zoo.cfg names that file instead of holding the member lines.
     */
    public static String render(ClusterSpec spec, int id, Path dataDir, Map<Integer, MemberPorts> portsById,
                                Path dynamicConfigFile) {
        return render(spec, id, dataDir, portsById, dynamicConfigFile, PeerView.DIRECT);
    }

    /** As above, with the other members' lines giving the ports {@code view} says member {@code id} reaches them at. */
    public static String render(ClusterSpec spec, int id, Path dataDir, Map<Integer, MemberPorts> portsById,
                                Path dynamicConfigFile, PeerView view) {
        return render(spec, id, dataDir, portsById, Map.of(), dynamicConfigFile, view);
    }

    static String render(ClusterSpec spec, int id, Path dataDir, Map<Integer, MemberPorts> portsById,
                         Map<Integer, String> hostById, Path dynamicConfigFile, PeerView view) {
        MemberPorts own = portsById.get(id);
        if (own == null) {
            throw new IllegalArgumentException("member " + id + " has no ports; members are " + portsById.keySet());
        }
        List<String> lines = new ArrayList<>();
        lines.add("tickTime=" + spec.tickTimeMs());
        lines.add("initLimit=" + spec.initLimitTicks());
        lines.add("syncLimit=" + spec.syncLimitTicks());
        lines.add("dataDir=" + dataDir.toAbsolutePath());
        lines.add("clientPort=" + own.clientPort());
        lines.add("maxClientCnxns=0");
        lines.add("4lw.commands.whitelist=" + FOUR_LETTER_WORDS);
        if (own.adminPort() != 0) {
            lines.add("admin.serverPort=" + own.adminPort());
        }
        if (spec.isObserver(id)) {
            lines.add("peerType=observer");
        }
        if (dynamicConfigFile == null) {
            lines.addAll(memberLines(spec, portsById, hostById, id, view));
        } else {
            lines.add("dynamicConfigFile=" + dynamicConfigFile.toAbsolutePath());
        }
        lines.addAll(spec.flavour().extraConfigLines());
        lines.addAll(spec.extraConfigLines());
        return String.join("\n", lines) + "\n";
    }

    /** The {@code server.N} line of every member, in id order. */
    public static List<String> memberLines(ClusterSpec spec, Map<Integer, MemberPorts> portsById) {
        return memberLines(spec, portsById, 0, PeerView.DIRECT);
    }

    /**
     * The {@code server.N} line of every member, in id order, as member {@code viewerId} is to see
     * them: its own line with its own ports, the others' with the ports {@code view} gives.
     */
    public static List<String> memberLines(ClusterSpec spec, Map<Integer, MemberPorts> portsById, int viewerId,
                                           PeerView view) {
        return memberLines(spec, portsById, Map.of(), viewerId, view);
    }

    /** As above, with the address each member listens on ({@value #HOST} for a member not in {@code hostById}). */
    static List<String> memberLines(ClusterSpec spec, Map<Integer, MemberPorts> portsById,
                                    Map<Integer, String> hostById, int viewerId, PeerView view) {
        List<String> lines = new ArrayList<>();
        for (int member = 1; member <= spec.memberCount(); member++) {
            MemberPorts own = portsById.get(member);
            if (own == null) {
                throw new IllegalArgumentException("member " + member + " has no ports");
            }
            MemberPorts ports = member == viewerId ? own : view.portsSeenBy(viewerId, member, own);
            String ownHost = hostById.getOrDefault(member, HOST);
            String host = member == viewerId ? ownHost : view.hostSeenBy(viewerId, member, ownHost);
            lines.add("server." + member + "=" + host + ":" + ports.peerPort() + ":" + ports.electionPort()
                    + (spec.isObserver(member) ? ":observer" : "") + ";"
                    // a member given its own address serves clients there too, not on the server's default
                    + (hostById.containsKey(member) ? ownHost + ":" : "") + ports.clientPort());
        }
        return lines;
    }

    /**
     * Writes {@code memberDir/zoo.cfg}, {@code dataDir/myid} and, when the spec asks for one, the
     * dynamic config file {@code memberDir/zoo.cfg.dynamic.<version in hex>}; returns the config file.
     */
    public static Path write(ClusterSpec spec, int id, Path memberDir, Path dataDir,
                             Map<Integer, MemberPorts> portsById) throws IOException {
        return write(spec, id, memberDir, dataDir, portsById, PeerView.DIRECT);
    }

    /** As above, with the other members at the ports {@code view} gives member {@code id}. */
    public static Path write(ClusterSpec spec, int id, Path memberDir, Path dataDir,
                             Map<Integer, MemberPorts> portsById, PeerView view) throws IOException {
        return write(spec, id, memberDir, dataDir, portsById, Map.of(), view);
    }

    /** As above, each member listening on the address {@code hostById} gives ({@value #HOST} when absent). */
    static Path write(ClusterSpec spec, int id, Path memberDir, Path dataDir, Map<Integer, MemberPorts> portsById,
                      Map<Integer, String> hostById, PeerView view) throws IOException {
        Files.createDirectories(dataDir);
        Files.writeString(dataDir.resolve("myid"), id + "\n", StandardCharsets.US_ASCII);
        Path dynamicConfigFile = null;
        if (spec.dynamicConfigVersion().isPresent()) {
            dynamicConfigFile = memberDir.resolve(DYNAMIC_FILE_PREFIX
                    + Long.toHexString(spec.dynamicConfigVersion().getAsLong()));
            Files.writeString(dynamicConfigFile, String.join("\n", memberLines(spec, portsById, hostById, id, view)) + "\n",
                    StandardCharsets.UTF_8);
        }
        Path config = memberDir.resolve("zoo.cfg");
        Files.writeString(config, render(spec, id, dataDir, portsById, hostById, dynamicConfigFile, view),
                StandardCharsets.UTF_8);
        return config;
    }
}
