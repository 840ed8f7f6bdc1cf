package dev.warden.cli.cluster;

/**
 * The loopback ports one member listens on. {@code adminPort} is the member's own AdminServer
 * port, or 0 when its configuration leaves {@code admin.serverPort} to the server's default (on
 * one machine only one member can then have it).
 */
public record MemberPorts(int clientPort, int peerPort, int electionPort, int adminPort) {
    public MemberPorts {
        checkPort("clientPort", clientPort);
        checkPort("peerPort", peerPort);
        checkPort("electionPort", electionPort);
        if (adminPort != 0) {
            checkPort("adminPort", adminPort);
        }
        if (clientPort == peerPort || clientPort == electionPort || peerPort == electionPort
                || adminPort == clientPort || adminPort == peerPort || adminPort == electionPort) {
            throw new IllegalArgumentException("a member's ports must differ: " + clientPort + ", " + peerPort
                    + ", " + electionPort + (adminPort == 0 ? "" : ", " + adminPort));
        }
    }

    /** Without a port of its own for the AdminServer. */
    public MemberPorts(int clientPort, int peerPort, int electionPort) {
        this(clientPort, peerPort, electionPort, 0);
    }

    private static void checkPort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " must be in 1..65535, was " + port);
        }
    }
}
