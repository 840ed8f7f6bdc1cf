package dev.warden.chaos.net;

import dev.warden.cli.cluster.FreePorts;
import dev.warden.cli.cluster.MemberPorts;
import dev.warden.cli.cluster.PeerView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The network of one run: every member reaches every other member's peer and election ports
 * through its own relay (so each direction between two members can be cut, delayed or made lossy
 * on its own), and client groups reach the members' client ports through relays too (so a client
 * can be cut off). Members are nodes 1..n; client groups are nodes {@value #FIRST_CLIENT_NODE} and up.
 *
 * <p>With {@link NetNamespaces}, each member runs in a namespace of its own and the relays sit
 * on the bridge between them: cuts between members are the kernel's (iptables rules following
 * the {@link LinkTable}), and the relays only delay and lose. Otherwise everything is on
 * loopback and the relays hold what a blocked link carries.
 */
public final class Network implements AutoCloseable {
    public static final int FIRST_CLIENT_NODE = 100;

    private final SortedMap<Integer, MemberPorts> memberPorts;
    private final LinkTable links = new LinkTable();
    private final Map<LinkTable.Link, List<Relay>> relays = new HashMap<>();
    private final Map<Integer, Map<Integer, Integer>> clientPorts = new HashMap<>();
    private final PortBook ports = new PortBook(FreePorts::pick);
    private final long seed;
    /** Null when every member is on this machine's loopback. */
    private final NetNamespaces namespaces;

    private Network(SortedMap<Integer, MemberPorts> memberPorts, long seed, NetNamespaces namespaces) {
        this.memberPorts = memberPorts;
        this.seed = seed;
        this.namespaces = namespaces;
    }

    /** Picks ports for {@code members} members and starts a relay for each ordered pair and port. */
    public static Network create(int members, long seed) throws IOException {
        return create(members, seed, null);
    }

    /**
     * As {@link #create(int, long)}, each member in its own namespace of {@code namespaces} (which
     * this network then owns and removes on close); cuts between members become iptables rules.
     */
    public static Network create(int members, long seed, NetNamespaces namespaces) throws IOException {
        List<MemberPorts> picked;
        try {
            picked = FreePorts.pickForMembers(members);
        } catch (RuntimeException e) {
            if (namespaces != null) {
                namespaces.close();
            }
            throw e;
        }
        SortedMap<Integer, MemberPorts> byId = new TreeMap<>();
        for (int id = 1; id <= members; id++) {
            byId.put(id, picked.get(id - 1));
        }
        Network network = new Network(byId, seed, namespaces);
        for (MemberPorts p : picked) {
            network.ports.reserve(List.of(p.clientPort(), p.peerPort(), p.electionPort()));
        }
        try {
            if (namespaces != null) {
                network.links.onChange(network::cutInKernel);
            }
            network.startPeerRelays();
        } catch (IOException | RuntimeException e) {
            network.close();
            throw e;
        }
        return network;
    }

    private void startPeerRelays() throws IOException {
        List<Integer> ids = List.copyOf(memberPorts.keySet());
        List<Integer> relayPorts = freePorts(2 * ids.size() * (ids.size() - 1));
        int next = 0;
        for (int from : ids) {
            for (int to : ids) {
                if (from == to) {
                    continue;
                }
                MemberPorts target = memberPorts.get(to);
                Relay peer = peerRelay(from, to, relayPorts.get(next++), target.peerPort(), seed * 31 + next);
                Relay election = peerRelay(from, to, relayPorts.get(next++), target.electionPort(), seed * 31 + next);
                relays.put(new LinkTable.Link(from, to), List.of(peer, election));
            }
        }
    }

    private Relay peerRelay(int from, int to, int listenPort, int targetPort, long relaySeed) throws IOException {
        if (namespaces == null) {
            return new Relay(from, to, listenPort, targetPort, links, relaySeed);
        }
        return new Relay(from, to, new InetSocketAddress(namespaces.aliasAddress(to), listenPort),
                new InetSocketAddress(namespaces.memberAddress(to), targetPort),
                InetAddress.getByName(namespaces.aliasAddress(from)), true, links, relaySeed);
    }

    /** The kernel's cuts follow the table: every blocked member-to-member link, and no other. */
    private void cutInKernel(Map<LinkTable.Link, LinkState> states) {
        Set<LinkTable.Link> blocked = new HashSet<>();
        states.forEach((link, state) -> {
            if (state.blocked()) {
                blocked.add(link);
            }
        });
        try {
            namespaces.cutExactly(blocked);
        } catch (IOException e) {
            throw new UncheckedIOException("could not change the partition's iptables rules", e);
        }
    }

    /** Adds relays from client group {@code node} to every member's client port; returns their connect string. */
    public synchronized String addClientGroup(int node) throws IOException {
        if (node < FIRST_CLIENT_NODE) {
            throw new IllegalArgumentException("client groups are nodes " + FIRST_CLIENT_NODE + " and up, was " + node);
        }
        if (!clientPorts.containsKey(node)) {
            List<Integer> ports = freePorts(memberPorts.size());
            Map<Integer, Integer> byMember = new TreeMap<>();
            int i = 0;
            for (Map.Entry<Integer, MemberPorts> member : memberPorts.entrySet()) {
                // the client (in this namespace) reaches the relay on loopback; the relay holds what a cut blocks
                Relay relay = new Relay(node, member.getKey(),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), ports.get(i++)),
                        new InetSocketAddress(memberHost(member.getKey()), member.getValue().clientPort()), null, false,
                        links, seed * 131 + node * 7L + i);
                relays.computeIfAbsent(new LinkTable.Link(node, member.getKey()), k -> new ArrayList<>()).add(relay);
                byMember.put(member.getKey(), relay.listenPort());
            }
            clientPorts.put(node, byMember);
        }
        return clientPorts.get(node).values().stream().map(port -> "127.0.0.1:" + port)
                .collect(Collectors.joining(","));
    }

    /** Ports free now and never handed out by this network before (a down member's included). */
    private List<Integer> freePorts(int count) {
        return ports.take(count);
    }

    public SortedMap<Integer, MemberPorts> memberPorts() {
        return memberPorts;
    }

    /** Where member {@code id} listens, as reached from this process. */
    public String memberHost(int id) {
        return namespaces == null ? "127.0.0.1" : namespaces.memberAddress(id);
    }

    /** Every member's {@link #memberHost}. */
    public Map<Integer, String> memberHosts() {
        Map<Integer, String> hosts = new TreeMap<>();
        memberPorts.keySet().forEach(id -> hosts.put(id, memberHost(id)));
        return hosts;
    }

    /** The namespaces the members run in, if they do. */
    public Optional<NetNamespaces> namespaces() {
        return Optional.ofNullable(namespaces);
    }

    /** What each member's zoo.cfg says about the others: their relays' ports. */
    public PeerView peerView() {
        return new PeerView() {
            @Override
            public MemberPorts portsSeenBy(int viewer, int member, MemberPorts ports) {
                List<Relay> pair = relays.get(new LinkTable.Link(viewer, member));
                return new MemberPorts(ports.clientPort(), pair.get(0).listenPort(), pair.get(1).listenPort());
            }

            @Override
            public String hostSeenBy(int viewer, int member, String memberHost) {
                return namespaces == null ? memberHost : namespaces.aliasAddress(member);
            }
        };
    }

    public LinkTable links() {
        return links;
    }

    /** Resets every connection between two nodes, both directions (a router reboot, an idle-timeout firewall). */
    public void resetBetween(int a, int b) {
        for (LinkTable.Link link : List.of(new LinkTable.Link(a, b), new LinkTable.Link(b, a))) {
            for (Relay relay : relays.getOrDefault(link, List.of())) {
                relay.resetConnections();
            }
        }
    }

    @Override
    public void close() {
        for (List<Relay> pair : relays.values()) {
            pair.forEach(Relay::close);
        }
        if (namespaces != null) {
            namespaces.close();
        }
    }
}
