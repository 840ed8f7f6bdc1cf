package dev.warden.chaos.net;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One network namespace per member, each joined to a bridge in this (the root) namespace by a
 * veth pair, on a /24 of 10.254.0.0/16 that no interface here uses. Member N has
 * {@code 10.254.S.(10+N)} inside its namespace; the bridge holds {@code 10.254.S.1} and one more
 * address per member, {@code 10.254.S.(30+N)}, where the relays towards member N listen and
 * where the relays from member N connect from. So inside every namespace each other member has
 * one address, whichever side opened the connection, and a cut from A to B is an iptables rule
 * in B's namespace: drop what arrives from A's addresses (its alias, and its own for anything
 * sent straight across the bridge), silently: SYNs, data and ACKs alike.
 *
 * <p>Every name starts with a run tag, {@code wc<pid><letter>} (interface names stay within the
 * kernel's 15 characters). Everything is removed on {@link #close}, by a shutdown hook if the JVM
 * exits first, and by {@link #removeLeftovers} for a run whose JVM was killed.
 */
public final class NetNamespaces implements AutoCloseable {
    /** {@code wc}, the creating JVM's pid, a letter per run in that JVM, then b(ridge), h(ost veth) N or m(ember) N. */
    private static final Pattern NAME = Pattern.compile("wc(\\d+)[a-z](?:b|h\\d+|m\\d+)");
    private static final AtomicInteger RUNS_IN_THIS_JVM = new AtomicInteger();
    private static final int MEMBER_HOST_BASE = 10;
    private static final int ALIAS_HOST_BASE = 30;

    private final String tag;
    private final int subnet;
    private final int members;
    private final Set<LinkTable.Link> cut = new HashSet<>();
    private final Thread removeOnExit;
    private boolean closed;

    private NetNamespaces(String tag, int subnet, int members) {
        this.tag = tag;
        this.subnet = subnet;
        this.members = members;
        this.removeOnExit = new Thread(this::removeAll, "netns-remove-on-exit");
    }

    /**
     * Why members cannot run in namespaces of their own here (not root, no working {@code ip
     * netns}, no iptables), or empty when they can. Tries a namespace for real, so it is what
     * this machine allows, not a guess.
     */
    public static Optional<String> unavailableBecause() {
        try {
            if (!"0".equals(HostCommands.require(List.of("id", "-u")))) {
                return Optional.of("not root (network namespaces and iptables need root)");
            }
            HostCommands.Result iptables = HostCommands.run(List.of("iptables", "--version"));
            if (!iptables.ok()) {
                return Optional.of("iptables does not run: " + iptables.output() + " (apt-get install iptables)");
            }
            String probe = "wc" + ProcessHandle.current().pid() + "zm0";
            HostCommands.Result add = HostCommands.run(List.of("ip", "netns", "add", probe));
            if (!add.ok()) {
                return Optional.of("'ip netns add' fails: " + add.output());
            }
            try {
                HostCommands.Result rules = HostCommands.run(List.of("ip", "netns", "exec", probe, "iptables", "-w",
                        "-S", "INPUT"));
                if (!rules.ok()) {
                    return Optional.of("iptables does not work inside a network namespace: " + rules.output());
                }
            } finally {
                HostCommands.quietly(List.of("ip", "netns", "del", probe));
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("cannot run ip or iptables: " + e.getMessage());
        }
    }

    /** Creates the bridge and a namespace per member (ids 1..members), each reachable from here. */
    public static NetNamespaces create(int members) throws IOException {
        String tag = "wc" + ProcessHandle.current().pid() + (char) ('a' + RUNS_IN_THIS_JVM.getAndIncrement() % 26);
        NetNamespaces namespaces = new NetNamespaces(tag, freeSubnet(), members);
        Runtime.getRuntime().addShutdownHook(namespaces.removeOnExit);
        try {
            namespaces.build();
        } catch (IOException | RuntimeException e) {
            namespaces.close();
            throw e;
        }
        return namespaces;
    }

    private void build() throws IOException {
        removeAll();
        String bridge = bridgeName();
        HostCommands.require(List.of("ip", "link", "add", bridge, "type", "bridge"));
        HostCommands.require(List.of("ip", "addr", "add", address(1) + "/24", "dev", bridge));
        for (int id = 1; id <= members; id++) {
            HostCommands.require(List.of("ip", "addr", "add", aliasAddress(id) + "/32", "dev", bridge));
        }
        HostCommands.require(List.of("ip", "link", "set", bridge, "up"));
        for (int id = 1; id <= members; id++) {
            String ns = namespace(id);
            String hostSide = tag + "h" + id;
            HostCommands.require(List.of("ip", "netns", "add", ns));
            HostCommands.require(List.of("ip", "link", "add", hostSide, "type", "veth", "peer", "name", "eth0",
                    "netns", ns));
            HostCommands.require(List.of("ip", "link", "set", hostSide, "master", bridge, "up"));
            inNamespace(id, "ip", "addr", "add", memberAddress(id) + "/24", "dev", "eth0");
            inNamespace(id, "ip", "link", "set", "eth0", "up");
            inNamespace(id, "ip", "link", "set", "lo", "up");
        }
    }

    /** A /24 of 10.254.0.0/16 that no interface here has an address in (so no route can clash). */
    private static int freeSubnet() throws IOException {
        String addresses = HostCommands.require(List.of("ip", "-4", "-o", "addr", "show"));
        int start = (int) (ProcessHandle.current().pid() % 200);
        for (int i = 0; i < 250; i++) {
            int candidate = 1 + (start + i) % 250;
            if (!addresses.contains(" 10.254." + candidate + ".")) {
                return candidate;
            }
        }
        throw new IOException("every 10.254.x.0/24 is in use on this machine; remove some, or run with --network relay");
    }

    private String address(int host) {
        return "10.254." + subnet + "." + host;
    }

    private String bridgeName() {
        return tag + "b";
    }

    public String tag() {
        return tag;
    }

    public String namespace(int id) {
        return tag + "m" + id;
    }

    /** Member {@code id}'s address inside its namespace, where it listens; reachable from here through the bridge. */
    public String memberAddress(int id) {
        return address(MEMBER_HOST_BASE + id);
    }

    /** Where the relays to member {@code id} listen, and what the relays from it connect from. */
    public String aliasAddress(int id) {
        return address(ALIAS_HOST_BASE + id);
    }

    /** The command prefix that runs a program inside member {@code id}'s namespace. */
    public List<String> execIn(int id) {
        return List.of("ip", "netns", "exec", namespace(id));
    }

    private String inNamespace(int id, String... command) throws IOException {
        List<String> full = new ArrayList<>(execIn(id));
        full.addAll(List.of(command));
        return HostCommands.require(full);
    }

    /**
     * Makes the kernel cut exactly the member-to-member links in {@code blocked} (from→to: what
     * {@code from} sends never arrives at {@code to}); links between other nodes are ignored.
     */
    public synchronized void cutExactly(Set<LinkTable.Link> blocked) throws IOException {
        if (closed) {
            return;
        }
        Set<LinkTable.Link> wanted = new TreeSet<>((a, b) -> a.from() != b.from() ? a.from() - b.from() : a.to() - b.to());
        for (LinkTable.Link link : blocked) {
            if (isMember(link.from()) && isMember(link.to()) && link.from() != link.to()) {
                wanted.add(link);
            }
        }
        for (LinkTable.Link link : List.copyOf(cut)) {
            if (!wanted.contains(link)) {
                for (String source : sources(link.from())) {
                    while (hasRule(link.to(), source)) { // an interrupted add may have left a copy
                        inNamespace(link.to(), "iptables", "-w", "-D", "INPUT", "-s", source, "-j", "DROP");
                    }
                }
                cut.remove(link);
            }
        }
        for (LinkTable.Link link : wanted) {
            if (!cut.contains(link)) {
                // recorded before its rules go in: an add interrupted half way may have taken effect,
                // and the next change (the heal) then asks the kernel and removes it
                cut.add(link);
                for (String source : sources(link.from())) {
                    if (!hasRule(link.to(), source)) {
                        inNamespace(link.to(), "iptables", "-w", "-A", "INPUT", "-s", source, "-j", "DROP");
                    }
                }
            }
        }
    }

    /**
     * Whether member {@code id}'s INPUT chain drops what comes from {@code source}
     * ({@code iptables -C}). A change interrupted half way (the flapping partition's thread stopped
     * at its heal, say) may have taken effect or not; asking the kernel keeps the next change from
     * failing on a rule already gone, or from adding one twice and leaving a copy after the heal.
     */
    private boolean hasRule(int id, String source) throws IOException {
        List<String> check = new ArrayList<>(execIn(id));
        check.addAll(List.of("iptables", "-w", "-C", "INPUT", "-s", source, "-j", "DROP"));
        return HostCommands.run(check).ok();
    }

    /** What arrives from member {@code id}: through the relays (its alias), or straight from its namespace. */
    private List<String> sources(int id) {
        return List.of(aliasAddress(id), memberAddress(id));
    }

    /** The rules in member {@code id}'s INPUT chain, as {@code iptables -S} prints them (for logs and tests). */
    public String rules(int id) throws IOException {
        return inNamespace(id, "iptables", "-w", "-S", "INPUT");
    }

    private boolean isMember(int node) {
        return node >= 1 && node <= members;
    }

    /**
     * Removes the namespaces, veths and bridges of runs whose JVM is gone (killed, so its shutdown
     * hook never ran); a running run's are left alone. Returns the names removed.
     */
    public static List<String> removeLeftovers() {
        List<String> removed = new ArrayList<>();
        try {
            for (String line : HostCommands.require(List.of("ip", "netns", "list")).split("\n")) {
                String name = line.trim().split("\\s+")[0];
                if (isLeftover(name)) {
                    HostCommands.quietly(List.of("ip", "netns", "del", name));
                    removed.add(name);
                }
            }
            for (String line : HostCommands.require(List.of("ip", "-o", "link", "show")).split("\n")) {
                String[] fields = line.split(":\\s+");
                if (fields.length < 2) {
                    continue;
                }
                String name = fields[1].split("@")[0].trim();
                if (isLeftover(name)) {
                    HostCommands.quietly(List.of("ip", "link", "del", name));
                    removed.add(name);
                }
            }
        } catch (IOException e) {
            // no ip command: nothing of ours can exist
        }
        return removed;
    }

    private static boolean isLeftover(String name) {
        Matcher matcher = NAME.matcher(name);
        if (!matcher.matches()) {
            return false;
        }
        long pid = Long.parseLong(matcher.group(1));
        return ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    /** Removes this run's namespaces (and with them their veths and rules) and its bridge. */
    private void removeAll() {
        for (int id = 1; id <= members; id++) {
            HostCommands.quietly(List.of("ip", "netns", "del", namespace(id)));
            HostCommands.quietly(List.of("ip", "link", "del", tag + "h" + id));
        }
        HostCommands.quietly(List.of("ip", "link", "del", bridgeName()));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(removeOnExit);
        } catch (IllegalStateException exiting) {
            // the JVM is shutting down and the hook runs (or ran) anyway
        }
    }
}
