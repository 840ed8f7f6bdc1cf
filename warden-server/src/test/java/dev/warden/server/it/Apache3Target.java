package dev.warden.server.it;

import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * A three-member Apache ZooKeeper 3.9 ensemble in this JVM, configured like {@link ApacheTarget}
 * (the JVM-wide settings are shared with it). Each call to {@link #connectString()} names the
 * next member in turn, as {@link Warden3Target} does, so sessions are spread the same way.
 */
final class Apache3Target implements TargetServer {
    private static final int MEMBERS = 3;
    private static final long SERVING_TIMEOUT_MS = 60_000;

    private final Path dataDir;
    private final int[] clientPorts = new int[MEMBERS];
    private final int[] quorumPorts = new int[MEMBERS];
    private final int[] electionPorts = new int[MEMBERS];
    private final List<Peer> peers = new ArrayList<>();
    private final AtomicInteger nextMember = new AtomicInteger();

    /** One member; runFromConfig blocks until shutdown, so each member gets a thread. */
    private static final class Peer extends QuorumPeerMain {
        private final Thread thread;

        Peer(QuorumPeerConfig config, int id) {
            thread = new Thread(() -> {
                try {
                    runFromConfig(config);
                } catch (Exception e) {
                    // close() interrupts the run; nothing to report
                }
            }, "apache3-peer-" + id);
            thread.setDaemon(true);
            thread.start();
        }

        boolean isServing() {
            QuorumPeer peer = quorumPeer;
            return peer != null && peer.getActiveServer() != null && peer.getActiveServer().isRunning();
        }

        void stop() throws InterruptedException {
            close();
            thread.join(10_000);
        }
    }

    private Apache3Target(Path dataDir) {
        this.dataDir = dataDir;
    }

    static Apache3Target start(Path dataDir, String superDigest) throws Exception {
        ApacheTarget.configureJvm(superDigest);
        Apache3Target target = new Apache3Target(dataDir);
        target.pickPorts();
        target.startAll();
        return target;
    }

    /** Below the ephemeral range, so a member dialling its peers cannot take a port picked for another. */
    private void pickPorts() {
        for (int i = 0; i < MEMBERS; i++) {
            clientPorts[i] = FreePorts.pick();
            quorumPorts[i] = FreePorts.pick();
            electionPorts[i] = FreePorts.pick();
        }
    }

    private void startAll() throws Exception {
        for (int index = 0; index < MEMBERS; index++) {
            peers.add(new Peer(config(index), index + 1));
        }
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        for (Peer peer : peers) {
            while (!peer.isServing()) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the Apache ensemble did not serve within " + SERVING_TIMEOUT_MS
                            + " ms");
                }
                Thread.sleep(10);
            }
        }
    }

    private QuorumPeerConfig config(int index) throws Exception {
        Path memberDir = Files.createDirectories(dataDir.resolve("member" + (index + 1)));
        Files.writeString(memberDir.resolve("myid"), Integer.toString(index + 1));
        Properties properties = new Properties();
        properties.setProperty("tickTime", Integer.toString(ApacheTarget.TICK_TIME_MS));
        properties.setProperty("initLimit", Integer.toString(EnsembleTestLimits.LIMIT_TICKS));
        properties.setProperty("syncLimit", Integer.toString(EnsembleTestLimits.LIMIT_TICKS));
        properties.setProperty("minSessionTimeout", Integer.toString(ApacheTarget.MIN_SESSION_TIMEOUT_MS));
        properties.setProperty("maxSessionTimeout", Integer.toString(ApacheTarget.MAX_SESSION_TIMEOUT_MS));
        properties.setProperty("maxClientCnxns", "500");
        properties.setProperty("dataDir", memberDir.toString());
        properties.setProperty("clientPort", Integer.toString(clientPorts[index]));
        properties.setProperty("clientPortAddress", "127.0.0.1");
        properties.setProperty("admin.enableServer", "false");
        properties.setProperty("reconfigEnabled", "false");
        properties.setProperty("standaloneEnabled", "false");
        for (int i = 0; i < MEMBERS; i++) {
            properties.setProperty("server." + (i + 1), "127.0.0.1:" + quorumPorts[i] + ":" + electionPorts[i]);
        }
        QuorumPeerConfig config = new QuorumPeerConfig();
        config.parseProperties(properties);
        return config;
    }

    @Override
    public String connectString() {
        return "127.0.0.1:" + clientPorts[Math.floorMod(nextMember.getAndIncrement(), MEMBERS)];
    }

    @Override
    public void restart() throws Exception {
        close();
        peers.clear();
        startAll();
    }

    @Override
    public String name() {
        return "apache3";
    }

    @Override
    public void close() throws InterruptedException {
        for (Peer peer : peers) {
            peer.stop();
        }
    }
}
