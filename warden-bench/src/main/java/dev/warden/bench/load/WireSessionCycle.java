package dev.warden.bench.load;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One session's life on the wire, as a client library lives it and nothing more: a TCP
 * connection, the connect request, the server's connect response (the session exists once the
 * server has logged it), the closeSession request and its reply (the close is logged too), then
 * the connection closed.
 *
 * <p>Why not a client library: the Apache client builds threads, a selector or a Netty event
 * loop group, and a watch manager for every new instance, which costs far more CPU than the
 * server spends on the session. On a machine where the load client shares the cores with the
 * server, a session storm through it measured the client: the server sat at a tenth of a core
 * while the client used the rest. Both servers answer these same bytes.
 */
final class WireSessionCycle {
    /** What the connect request offers: protocol 0, as every released client sends. */
    private static final int PROTOCOL_VERSION = 0;
    private static final int CLOSE_XID = 1;

    private final InetSocketAddress server;
    private final int sessionTimeoutMs;
    private final int connectTimeoutMs;

    WireSessionCycle(InetSocketAddress server, int sessionTimeoutMs, int connectTimeoutMs) {
        this.server = server;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.connectTimeoutMs = connectTimeoutMs;
    }

    /** Opens a session and closes it again; returns null when both succeeded, else what failed. */
    String run() throws IOException {
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(server, connectTimeoutMs);
            socket.setSoTimeout(Math.max(connectTimeoutMs, sessionTimeoutMs));
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());

            JuteWriter connect = frame();
            new ConnectRequest(PROTOCOL_VERSION, 0, sessionTimeoutMs, 0, new byte[16], false, true).writeTo(connect);
            send(out, connect);
            ConnectResponse established = ConnectResponse.read(readFrame(in));
            if (established.sessionId() == 0 || established.timeOutMs() <= 0) {
                return "SESSION_REFUSED";
            }

            JuteWriter close = frame();
            new RequestHeader(CLOSE_XID, OpCode.CLOSE_SESSION).writeTo(close);
            send(out, close);
            ReplyHeader closed = ReplyHeader.read(readFrame(in));
            if (closed.xid() != CLOSE_XID) {
                return "UNEXPECTED_REPLY";
            }
            return closed.err() == 0 ? null : "CLOSE_FAILED";
        }
    }

    private static JuteWriter frame() {
        JuteWriter writer = new JuteWriter(64);
        writer.writeInt(0); // length, set once the body is written
        return writer;
    }

    private static void send(OutputStream out, JuteWriter frame) throws IOException {
        frame.setInt(0, frame.size() - 4);
        out.write(frame.array(), 0, frame.size());
        out.flush();
    }

    private JuteReader readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 1 << 20) {
            throw new IOException("frame of " + length + " bytes from " + server);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return new JuteReader(body);
    }
}
