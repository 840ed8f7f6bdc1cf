package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ProtocolException;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client may send requests right behind its ConnectRequest, without waiting for the session
 * (ZooKeeper stops reading it until the session exists, then serves them): they are held while
 * the session is made and then served in the order sent, not taken for a second handshake.
 */
class PipelinedAfterConnectTest {
    private static final int GETS = 20;

    @TempDir
    Path dataDir;

    /** With inline writes the idle server makes the session before it decodes the next frame; without, it does not. */
    @ParameterizedTest(name = "inlineIdleWrites={0}")
    @ValueSource(booleans = {false, true})
    void requestsSentBehindTheConnectRequestAreServedInOrder(boolean inlineIdleWrites) throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .inlineIdleWrites(inlineIdleWrites).build());
             Socket socket = new Socket("127.0.0.1", server.clientPort())) {
            socket.setSoTimeout(20_000);
            // one write, so the requests reach the server in the same read as the handshake
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            all.write(RawFrames.frame(new ConnectRequest(0, 0, 30_000, 0, new byte[16], false, true)));
            all.write(RawFrames.frame(new RequestHeader(1, OpCode.CREATE),
                    new CreateRequest("/pipelined", new byte[] {42},
                    dev.warden.protocol.Perms.OPEN_ACL_UNSAFE, 0)));
            for (int xid = 2; xid <= GETS + 1; xid++) {
                all.write(RawFrames.frame(new RequestHeader(xid, OpCode.GET_DATA),
                        new GetDataRequest("/pipelined", false)));
            }
            socket.getOutputStream().write(all.toByteArray());
            socket.getOutputStream().flush();

            DataInputStream in = new DataInputStream(socket.getInputStream());
            ConnectResponse connected = ConnectResponse.read(RawFrames.read(in));
            assertTrue(connected.sessionId() != 0, "a session was made");
            List<Integer> xids = new ArrayList<>();
            for (int i = 0; i < GETS + 1; i++) {
                ReplyHeader reply = ReplyHeader.read(RawFrames.read(in));
                assertEquals(0, reply.err(), "reply to xid " + reply.xid());
                xids.add(reply.xid());
            }
            List<Integer> expected = new ArrayList<>();
            for (int xid = 1; xid <= GETS + 1; xid++) {
                expected.add(xid);
            }
            assertEquals(expected, xids, "every request answered once, in the order sent");
        }
    }

    @Test
    void heldRequestsAreServedOldestFirstAndBounded() {
        HeldRequests held = new HeldRequests(10);
        byte[] scratch = {1, 2, 3, 4};
        held.hold(scratch, 3);
        scratch[0] = 9; // the caller reuses its array; what is held is a copy
        held.hold(scratch, 4);
        List<String> served = new ArrayList<>();
        held.serveAll((frame, length, moreBehind) -> served.add(frame[0] + "/" + length + "/" + moreBehind));
        assertEquals(List.of("1/3/true", "9/4/false"), served);
        held.hold(scratch, 4);
        held.hold(scratch, 4);
        assertThrows(ProtocolException.class, () -> held.hold(scratch, 4), "past the limit the client is refused");
    }
}
