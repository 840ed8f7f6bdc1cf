package dev.warden.client.support;

import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.apache.zookeeper.server.ServerCnxn;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/** A three-node Apache ZooKeeper ensemble on loopback ports, in this JVM. */
public final class ApacheEnsemble implements TargetServer {
    private static final int SIZE = 3;

    private final Path baseDir;
    private final int[] clientPorts = new int[SIZE];
    private final int[] quorumPorts = new int[SIZE];
    private final int[] electionPorts = new int[SIZE];
    private final List<Peer> peers = new ArrayList<>();
    private final boolean reconfigEnabled;

    /** One running member; QuorumPeerMain blocks in runFromConfig, so it gets a thread. */
    private static final class Peer extends QuorumPeerMain {
        private final Thread thread;

        Peer(QuorumPeerConfig config, int id) {
            thread = new Thread(() -> {
                try {
                    runFromConfig(config);
                } catch (Exception e) {
                    // shutdown interrupts the run; nothing to report
                }
            }, "zk-peer-" + id);
            thread.setDaemon(true);
            thread.start();
        }

        boolean isLeading() {
            QuorumPeer peer = quorumPeer;
            return peer != null && peer.getPeerState() == QuorumPeer.ServerState.LEADING;
        }

        boolean hostsSession(long sessionId) {
            QuorumPeer peer = quorumPeer;
            ZooKeeperServer server = peer == null ? null : peer.getActiveServer();
            ServerCnxnFactory factory = server == null ? null : server.getServerCnxnFactory();
            if (factory == null) {
                return false;
            }
            for (ServerCnxn connection : factory.getConnections()) {
                if (connection.getSessionId() == sessionId) {
                    return true;
                }
            }
            return false;
        }

        void stop() throws InterruptedException {
            close();
            thread.join(10_000);
        }
    }

    public ApacheEnsemble() {
        this(false);
    }

    /** With {@code reconfigEnabled}, members accept dynamic reconfiguration from a super user. */
    public ApacheEnsemble(boolean reconfigEnabled) {
        this.reconfigEnabled = reconfigEnabled;
        try {
            baseDir = Files.createTempDirectory("warden-client-ensemble");
            int[] ports = freePorts(SIZE * 3);
            for (int i = 0; i < SIZE; i++) {
                clientPorts[i] = ports[i * 3];
                quorumPorts[i] = ports[i * 3 + 1];
                electionPorts[i] = ports[i * 3 + 2];
                peers.add(null);
            }
            for (int i = 0; i < SIZE; i++) {
                startPeer(i);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Distinct ports below the ephemeral range (see {@link FreePorts}). */
    private static int[] freePorts(int count) {
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = FreePorts.pick();
        }
        return ports;
    }

    public void startPeer(int index) {
        try {
            Path dataDir = baseDir.resolve("peer" + (index + 1));
            Files.createDirectories(dataDir);
            Files.writeString(dataDir.resolve("myid"), Integer.toString(index + 1));
            Properties properties = new Properties();
            properties.setProperty("tickTime", "200");
            properties.setProperty("initLimit", Integer.toString(EnsembleTestLimits.LIMIT_TICKS));
            properties.setProperty("syncLimit", Integer.toString(EnsembleTestLimits.LIMIT_TICKS));
            properties.setProperty("maxSessionTimeout", "20000");
            properties.setProperty("dataDir", dataDir.toString());
            properties.setProperty("clientPort", Integer.toString(clientPorts[index]));
            properties.setProperty("clientPortAddress", "127.0.0.1");
            for (int i = 0; i < SIZE; i++) {
                properties.setProperty("server." + (i + 1), "127.0.0.1:" + quorumPorts[i] + ":" + electionPorts[i]
                        + (reconfigEnabled ? ";127.0.0.1:" + clientPorts[i] : ""));
            }
            if (reconfigEnabled) {
                properties.setProperty("reconfigEnabled", "true");
                properties.setProperty("standaloneEnabled", "false");
            }
            QuorumPeerConfig config = new QuorumPeerConfig();
            if (reconfigEnabled) {
                // With reconfiguration the member keeps its list in a dynamic file beside a zoo.cfg it rewrites.
                Path zooCfg = dataDir.resolve("zoo.cfg");
                if (!Files.exists(zooCfg)) {
                    try (var out = Files.newBufferedWriter(zooCfg)) {
                        properties.store(out, null);
                    }
                }
                config.parse(zooCfg.toString());
            } else {
                config.parseProperties(properties);
            }
            peers.set(index, new Peer(config, index + 1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (QuorumPeerConfig.ConfigException e) {
            throw new IllegalStateException(e);
        }
    }

    public void stopPeer(int index) {
        Peer peer = peers.get(index);
        if (peer != null) {
            try {
                peer.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            peers.set(index, null);
        }
    }

    /** The member that leads now, or -1. */
    public int leaderIndex() {
        for (int i = 0; i < SIZE; i++) {
            Peer peer = peers.get(i);
            if (peer != null && peer.isLeading()) {
                return i;
            }
        }
        return -1;
    }

    /** The member whose client port currently carries the session, or -1. */
    public int memberHosting(long sessionId) {
        for (int i = 0; i < SIZE; i++) {
            Peer peer = peers.get(i);
            if (peer != null && peer.hostsSession(sessionId)) {
                return i;
            }
        }
        return -1;
    }

    /** The dynamic-config line of a member without the {@code server.} prefix (id=spec), for reconfig. */
    public String memberSpec(int index) {
        return (index + 1) + "=127.0.0.1:" + quorumPorts[index] + ":" + electionPorts[index] + ":participant;127.0.0.1:"
                + clientPorts[index];
    }

    public String address(int index) {
        return "127.0.0.1:" + clientPorts[index];
    }

    /** The first member's client port. */
    @Override
    public int port() {
        return clientPorts[0];
    }

    @Override
    public String connectString() {
        StringJoiner joiner = new StringJoiner(",");
        for (int i = 0; i < SIZE; i++) {
            joiner.add(address(i));
        }
        return joiner.toString();
    }

    @Override
    public void stop() {
        for (int i = 0; i < SIZE; i++) {
            stopPeer(i);
        }
    }

    @Override
    public void restart() {
        stop();
        for (int i = 0; i < SIZE; i++) {
            startPeer(i);
        }
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(baseDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort cleanup of a temp dir
        }
    }
}
