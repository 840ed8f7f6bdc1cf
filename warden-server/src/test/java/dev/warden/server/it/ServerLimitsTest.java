package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Warden's limits: connections per address, watches per session, requests in flight, opcodes. */
class ServerLimitsTest {
    @TempDir
    Path dataDir;

    private WardenServer start(ServerConfig.Builder config) throws IOException {
        return WardenServer.start(config.dataDir(dataDir).clientPort(0).tickTimeMs(200).build());
    }

    @Test
    void connectionsPastMaxClientCnxnsFromOneAddressAreClosed() throws Exception {
        try (WardenServer server = start(ServerConfig.builder().maxClientCnxns(3))) {
            List<Socket> open = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    open.add(handshake(server.clientPort()));
                }
                try (Socket refused = handshakeAttempt(server.clientPort())) {
                    assertThrows(EOFException.class, () -> new DataInputStream(refused.getInputStream()).readInt(),
                            "the fourth connection from one address is closed without a reply");
                }
                open.remove(0).close();
                // The server notices the close asynchronously; the slot frees within moments.
                Socket again = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (again == null && System.nanoTime() < deadline) {
                    try {
                        again = handshake(server.clientPort());
                    } catch (IOException e) {
                        Thread.sleep(20);
                    }
                }
                assertTrue(again != null, "a freed slot is usable again");
                open.add(again);
            } finally {
                for (Socket socket : open) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void watchesPastTheSessionLimitGiveQuotaExceededAndRegisterNothing() throws Exception {
        try (WardenServer server = start(ServerConfig.builder().maxWatchesPerSession(3))) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/a", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.exists("/a", true);
                zk.getData("/a", true, null);
                zk.getChildren("/a", true);
                zk.exists("/b", true);
                assertThrows(KeeperException.QuotaExceededException.class, () -> zk.exists("/c", true));
                assertThrows(KeeperException.QuotaExceededException.class, () -> zk.getChildren("/", true));
                // A read without a watch is not limited.
                assertEquals(0, zk.getChildren("/a", false).size());
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void backPressureAtTheOutstandingLimitLosesAndFailsNothing() throws Exception {
        int clients = 8;
        int writesEach = 300;
        try (WardenServer server = start(ServerConfig.builder().globalOutstandingLimit(4))) {
            List<ZooKeeper> sessions = new ArrayList<>();
            AtomicInteger failures = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(clients * writesEach);
            try {
                for (int c = 0; c < clients; c++) {
                    ZooKeeper zk = ApacheClients.connect(server.connectString());
                    sessions.add(zk);
                    zk.create("/c" + c, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                }
                for (int c = 0; c < clients; c++) {
                    for (int i = 0; i < writesEach; i++) {
                        sessions.get(c).create("/c" + c + "/n", new byte[16], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                CreateMode.PERSISTENT_SEQUENTIAL, (rc, path, ctx, name) -> {
                                    if (rc != 0) {
                                        failures.incrementAndGet();
                                    }
                                    done.countDown();
                                }, null);
                    }
                }
                assertTrue(done.await(60, TimeUnit.SECONDS), "every request completes");
                assertEquals(0, failures.get());
                for (int c = 0; c < clients; c++) {
                    assertEquals(writesEach, sessions.get(c).getChildren("/c" + c, false).size());
                }
            } finally {
                for (ZooKeeper zk : sessions) {
                    zk.close();
                }
            }
        }
    }

    @Test
    void unknownOpcodesAndCheckAloneGetUnimplementedThenTheConnectionCloses() throws Exception {
        try (WardenServer server = start(ServerConfig.builder())) {
            for (int opcode : new int[] {999, 0, 10, 13, -10}) {
                try (Socket socket = handshake(server.clientPort())) {
                    JuteWriter request = new JuteWriter();
                    request.writeInt(7).writeInt(opcode);
                    writeFrame(socket, request.toByteArray());
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    byte[] reply = new byte[in.readInt()];
                    in.readFully(reply);
                    ReplyHeader header = ReplyHeader.read(new dev.warden.protocol.JuteReader(reply));
                    assertEquals(new ReplyHeader(7, -1, ErrorCode.UNIMPLEMENTED.code()), header, "opcode " + opcode);
                    assertThrows(EOFException.class, in::readInt, "connection closed after opcode " + opcode);
                }
            }
        }
    }


    /** As ZooKeeper with reconfigEnabled=false: refused with RECONFIG_DISABLED, and the session goes on. */
    @Test
    void reconfigIsRefusedAsDisabledAndTheConnectionStays() throws Exception {
        try (WardenServer server = start(ServerConfig.builder())) {
            try (Socket socket = handshake(server.clientPort())) {
                JuteWriter reconfig = new JuteWriter();
                reconfig.writeInt(7).writeInt(OpCode.RECONFIG);
                new dev.warden.protocol.ReconfigRequest(null, "2", null, -1).writeTo(reconfig);
                writeFrame(socket, reconfig.toByteArray());
                JuteWriter exists = new JuteWriter();
                exists.writeInt(8).writeInt(OpCode.EXISTS);
                new dev.warden.protocol.ExistsRequest("/", false).writeTo(exists);
                writeFrame(socket, exists.toByteArray());
                DataInputStream in = new DataInputStream(socket.getInputStream());
                byte[] reply = new byte[in.readInt()];
                in.readFully(reply);
                ReplyHeader header = ReplyHeader.read(new dev.warden.protocol.JuteReader(reply));
                assertEquals(7, header.xid());
                assertEquals(ErrorCode.RECONFIG_DISABLED.code(), header.err());
                reply = new byte[in.readInt()];
                in.readFully(reply);
                header = ReplyHeader.read(new dev.warden.protocol.JuteReader(reply));
                assertEquals(8, header.xid());
                assertEquals(0, header.err(), "the session serves on after the refused reconfig");
            }
        }
    }

    private static Socket handshakeAttempt(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        JuteWriter connect = new JuteWriter();
        new ConnectRequest(0, 0, 10_000, 0, new byte[16], false, true).writeTo(connect);
        try {
            writeFrame(socket, connect.toByteArray());
        } catch (IOException e) {
            // A refused connection may already be closed; reading shows it.
        }
        return socket;
    }

    private static Socket handshake(int port) throws IOException {
        Socket socket = handshakeAttempt(port);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            byte[] reply = new byte[in.readInt()];
            in.readFully(reply);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        return socket;
    }

    private static void writeFrame(Socket socket, byte[] payload) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
    }
}
