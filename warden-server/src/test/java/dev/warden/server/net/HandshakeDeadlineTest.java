package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sessionlessConnectionTimeoutMs: a connection that sends no handshake is closed when it runs
 * out, and one whose session was established (its deadline cancelled) is not.
 */
class HandshakeDeadlineTest {
    private static final int DEADLINE_MS = 300;

    @TempDir
    Path dataDir;

    @Test
    void aConnectionWithoutAHandshakeIsClosedAtTheDeadline() throws Exception {
        try (WardenServer server = WardenServer.start(config());
             Socket silent = connect(server.clientPort())) {
            long startNs = System.nanoTime();
            assertEquals(-1, silent.getInputStream().read(), "the server should close a connection without a handshake");
            long waitedMs = (System.nanoTime() - startNs) / 1_000_000;
            assertTrue(waitedMs >= DEADLINE_MS / 2, "closed after " + waitedMs + " ms, before the deadline");
        }
    }

    @Test
    void anEstablishedSessionOutlivesTheDeadline() throws Exception {
        try (WardenServer server = WardenServer.start(config());
             Socket socket = connect(server.clientPort())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            JuteWriter connect = new JuteWriter();
            new ConnectRequest(0, 0, 10_000, 0, new byte[16], false, true).writeTo(connect);
            writeFrame(out, connect.toByteArray());
            RawFrames.read(in); // the connect response: the session exists

            Thread.sleep(3L * DEADLINE_MS);

            JuteWriter ping = new JuteWriter();
            new RequestHeader(OpCode.XID_PING, OpCode.PING).writeTo(ping);
            writeFrame(out, ping.toByteArray());
            assertEquals(OpCode.XID_PING, ReplyHeader.read(RawFrames.read(in)).xid());
        }
    }

    private ServerConfig config() {
        return ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(0)
                .forceSync(false)
                .sessionlessConnectionTimeoutMs(DEADLINE_MS)
                .build();
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void writeFrame(DataOutputStream out, byte[] payload) throws IOException {
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
    }
}
