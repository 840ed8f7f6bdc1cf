package dev.warden.cli.cluster;

/**
 * The peer and election ports one member is told to reach another member at. The identity view
 * tells every member every other member's own ports; a view that answers with other ports lets a
 * relay sit between two members (a fault-injecting proxy, say), while each member still binds its
 * own ports, which its own {@code server.N} line always names.
 */
@FunctionalInterface
public interface PeerView {
    /** Every member reaches every other at the ports that member listens on. */
    PeerView DIRECT = (viewerId, memberId, ports) -> ports;

    /**
     * @param viewerId the member whose zoo.cfg is being written
     * @param memberId another member ({@code != viewerId})
     * @param ports    the ports {@code memberId} listens on
     * @return the ports {@code viewerId} connects to for {@code memberId}; the client port is not used
     */
    MemberPorts portsSeenBy(int viewerId, int memberId, MemberPorts ports);

    /**
     * The address {@code viewerId} connects to for {@code memberId}; by default the address that
     * member listens on. A view whose relays listen elsewhere (another network namespace) says where.
     */
    default String hostSeenBy(int viewerId, int memberId, String memberHost) {
        return memberHost;
    }
}
