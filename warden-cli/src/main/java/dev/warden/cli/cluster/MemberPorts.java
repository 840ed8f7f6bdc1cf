package dev.warden.cli.cluster;

/** The three loopback ports one member listens on. */
public record MemberPorts(int clientPort, int peerPort, int electionPort) {
    public MemberPorts {
        checkPort("clientPort", clientPort);
        checkPort("peerPort", peerPort);
        checkPort("electionPort", electionPort);
        if (clientPort == peerPort || clientPort == electionPort || peerPort == electionPort) {
            throw new IllegalArgumentException("a member's ports must differ: " + clientPort + ", " + peerPort
                    + ", " + electionPort);
        }
    }

    private static void checkPort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " must be in 1..65535, was " + port);
        }
    }
}
