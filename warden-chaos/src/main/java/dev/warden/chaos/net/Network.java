package dev.warden.chaos.net;

import dev.warden.cli.cluster.FreePorts;
import dev.warden.cli.cluster.MemberPorts;
import dev.warden.cli.cluster.PeerView;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The network of one run: every member reaches every other member's peer and election ports
 * through its own relay (so each direction between two members can be cut, delayed or made lossy
 * on its own), and client groups reach the members' client ports through relays too (so a client
 * can be cut off). Members are nodes 1..n; client groups are nodes {@value #FIRST_CLIENT_NODE} and up.
 */
public final class Network implements AutoCloseable {
    public static final int FIRST_CLIENT_NODE = 100;

    private final SortedMap<Integer, MemberPorts> memberPorts;
    private final LinkTable links = new LinkTable();
    private final Map<LinkTable.Link, List<Relay>> relays = new HashMap<>();
    private final Map<Integer, Map<Integer, Integer>> clientPorts = new HashMap<>();
    private final PortBook ports = new PortBook(FreePorts::pick);
    private final long seed;

    private Network(SortedMap<Integer, MemberPorts> memberPorts, long seed) {
        this.memberPorts = memberPorts;
        this.seed = seed;
    }

    /** Picks ports for {@code members} members and starts a relay for each ordered pair and port. */
    public static Network create(int members, long seed) throws IOException {
        List<MemberPorts> picked = FreePorts.pickForMembers(members);
        SortedMap<Integer, MemberPorts> byId = new TreeMap<>();
        for (int id = 1; id <= members; id++) {
            byId.put(id, picked.get(id - 1));
        }
        Network network = new Network(byId, seed);
        for (MemberPorts p : picked) {
            network.ports.reserve(List.of(p.clientPort(), p.peerPort(), p.electionPort()));
        }
        try {
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
                Relay peer = new Relay(from, to, relayPorts.get(next++), target.peerPort(), links, seed * 31 + next);
                Relay election = new Relay(from, to, relayPorts.get(next++), target.electionPort(), links,
                        seed * 31 + next);
                relays.put(new LinkTable.Link(from, to), List.of(peer, election));
            }
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
                Relay relay = new Relay(node, member.getKey(), ports.get(i++), member.getValue().clientPort(), links,
                        seed * 131 + node * 7L + i);
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

    /** What each member's zoo.cfg says about the others: their relays' ports. */
    public PeerView peerView() {
        return (viewer, member, ports) -> {
            List<Relay> pair = relays.get(new LinkTable.Link(viewer, member));
            return new MemberPorts(ports.clientPort(), pair.get(0).listenPort(), pair.get(1).listenPort());
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
    }
}
