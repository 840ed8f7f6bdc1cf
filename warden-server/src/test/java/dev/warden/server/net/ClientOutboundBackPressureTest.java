package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.RequestHeader;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends requests and never reads the replies is no longer read once its replies
 * waiting for the socket pass the high-water mark: the server does not take its requests (and
 * queue their replies) without end.
 */
class ClientOutboundBackPressureTest {
    private static final int VALUE_BYTES = 512 * 1024;
    private static final int REQUESTS = 400;
    /** How long the server is watched not taking the requests. */
    private static final int WATCH_SECONDS = 5;
    private static final Pattern RECEIVED = Pattern.compile("Received: (\\d+)");

    @TempDir
    Path dataDir;

    @Test
    void aClientThatReadsNoRepliesIsNoLongerRead() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .build())) {
            String connectString = "127.0.0.1:" + server.clientPort();
            ZooKeeper zk = new ZooKeeper(connectString, 30_000, event -> { });
            try {
                zk.create("/big", new byte[VALUE_BYTES], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } finally {
                zk.close();
            }
            long receivedBefore = received(connectString);
            try (Socket socket = new Socket("127.0.0.1", server.clientPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(RawFrames.frame(new ConnectRequest(0, 0, 30_000, 0, new byte[16], false, true)));
                // Each getData is small: all of them fit in the sockets' buffers, so only the
                // server's choice not to read them keeps it from taking them all. One at a time,
                // so that a read of the server's holds a few (it answers every request of a read).
                for (int xid = 1; xid <= REQUESTS; xid++) {
                    out.write(RawFrames.frame(new RequestHeader(xid, dev.warden.protocol.OpCode.GET_DATA),
                            new GetDataRequest("/big", false)));
                    out.flush();
                    Thread.sleep(1);
                }
                out.flush();
                // Without back-pressure it takes all of them within a second or two, queuing
                // 200 MiB of replies; with it, what the sockets' buffers and the high-water mark
                // hold (some 100 replies on loopback, growing slowly as the kernel's windows do).
                long watchUntilNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(WATCH_SECONDS);
                while (System.nanoTime() < watchUntilNs) {
                    long taken = received(connectString) - receivedBefore;
                    assertTrue(taken < REQUESTS / 2, "the server took " + taken + " of " + REQUESTS
                            + " requests from a client that reads no replies");
                    Thread.sleep(200);
                }
            }
        }
    }

    private static long received(String connectString) throws Exception {
        Matcher m = RECEIVED.matcher(FourLetterWordClient.ask(connectString, "srvr"));
        assertTrue(m.find(), "srvr shows Received");
        return Long.parseLong(m.group(1));
    }
}
