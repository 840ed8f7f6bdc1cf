package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import dev.warden.cli.cluster.MemberPorts;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * A stranger's 128 MiB frame at the peer and election ports of real member JVMs (192 MiB heaps):
 * a length field announcing 128 MiB, then the 128 MiB. Each port must hang up at the length
 * field, long before the frame is sent, and the member must go on serving without an
 * OutOfMemoryError. Before the hello limit, a member buffered such a frame in direct memory.
 */
class PeerPortFloodTest {
    private static final int TICK_TIME_MS = 500;
    private static final int SESSION_TIMEOUT_MS = 10_000;
    private static final int FRAME_BYTES = 128 << 20;
    private static final int CHUNK_BYTES = 64 << 10;
    /** Loopback socket buffers on both sides hold a few MiB; a port that stops reading takes no more. */
    private static final long MAX_BYTES_TAKEN = 32L << 20;
    private static final int CLOSE_TIMEOUT_MS = 30_000;
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aHundredAndTwentyEightMebibyteFrameAtThePeerPortsIsCutOffAndTheMembersServeOn() throws Exception {
        LocalCluster cluster = Ensembles.startCluster(Flavour.WARDEN, Ensembles.runDir("peer-port-flood"),
                TICK_TIME_MS);
        boolean passed = false;
        try {
            int leader = cluster.awaitQuorum(QUORUM_TIMEOUT);
            int follower = cluster.followers().get(0);
            for (int target : List.of(leader, follower)) {
                MemberPorts ports = cluster.member(target).ports();
                for (int port : List.of(ports.peerPort(), ports.electionPort())) {
                    long takenBytes = flood(port);
                    System.out.println("member " + target + " port " + port + " closed the connection after taking "
                            + takenBytes + " of the " + FRAME_BYTES + "-byte frame");
                    assertTrue(takenBytes < MAX_BYTES_TAKEN, "member " + target + " port " + port + " took "
                            + takenBytes + " bytes of a stranger's frame before closing; " + cluster.describe());
                }
            }
            cluster.awaitQuorum(QUORUM_TIMEOUT);
            for (int target : List.of(leader, follower)) {
                MemberMode mode = cluster.mode(target);
                assertTrue(mode.servesInEnsemble(), "member " + target + " is " + mode + "; " + cluster.describe());
                byte[] data = ("via " + target).getBytes(StandardCharsets.UTF_8);
                try (ZooKeeper zk = Ensembles.connect(cluster.connectString(target), SESSION_TIMEOUT_MS)) {
                    zk.create("/after-flood-" + target, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                }
                for (int id : cluster.ids()) {
                    try (ZooKeeper reader = Ensembles.connect(cluster.connectString(id), SESSION_TIMEOUT_MS)) {
                        TreeDump.sync(reader, "/");
                        assertArrayEquals(data, reader.getData("/after-flood-" + target, false, null),
                                "member " + id + " reads the write made through member " + target);
                    }
                }
            }
            for (int id : cluster.ids()) {
                for (Path log : List.of(cluster.member(id).stdoutFile(), cluster.member(id).stderrFile())) {
                    assertFalse(Files.readString(log).contains("OutOfMemoryError"),
                            "member " + id + " ran out of memory: see " + log);
                }
            }
            EnsembleChecks.exactlyOneLeader(cluster);
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    /**
     * Sends the length field and then the frame's bytes until the member hangs up; returns how
     * many of them were written before the writes failed (what the socket buffers took).
     */
    private static long flood(int port) throws IOException {
        long sent = 0;
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(CLOSE_TIMEOUT_MS);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] chunk = new byte[CHUNK_BYTES];
            try {
                out.writeInt(FRAME_BYTES);
                while (sent < FRAME_BYTES) {
                    out.write(chunk);
                    sent += chunk.length;
                }
            } catch (IOException hungUp) {
                awaitClosed(socket, port);
                return sent;
            }
            awaitClosed(socket, port);
            throw new AssertionError("port " + port + " took the whole " + FRAME_BYTES
                    + "-byte frame of a connection that never sent a hello");
        }
    }

    private static void awaitClosed(Socket socket, int port) throws IOException {
        try {
            int read = socket.getInputStream().read();
            assertTrue(read == -1, "port " + port + " answered a stranger");
        } catch (SocketTimeoutException stillOpen) {
            throw new AssertionError("port " + port + " kept the connection open for " + CLOSE_TIMEOUT_MS + " ms");
        } catch (SocketException reset) {
            // closed with bytes unread
        }
    }
}
