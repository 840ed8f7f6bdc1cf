package dev.warden.bench.load;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A session spoken on the wire, with nothing of a client library around it: one blocking
 * socket, the handshake, requests written as frames and frames read back in order.
 *
 * <p>Why the load needs it: a client library instance costs far more than the server spends on
 * some workloads. A new Apache client builds threads and its socket's event loop (a session
 * storm through it measured the client: the server sat at a tenth of a core), and each watching
 * session of a fan-out carries two threads of its own, so 10,000 watchers would be 20,000
 * threads. Both servers answer these same bytes.
 */
final class WireSession implements AutoCloseable {
    /** What the connect request offers: protocol 0, as every released client sends. */
    private static final int PROTOCOL_VERSION = 0;
    private static final int MAX_FRAME_BYTES = 4 << 20;

    private final InetSocketAddress server;
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final long sessionId;
    private int nextXid = 1;

    private WireSession(InetSocketAddress server, Socket socket, long sessionId) throws IOException {
        this.server = server;
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream(), 512);
        this.in = new DataInputStream(socket.getInputStream());
        this.sessionId = sessionId;
    }

    /**
     * Connects to {@code server} and establishes a new session; returns null when the server
     * refused it (a connect response without a session). Reads time out after {@code readTimeoutMs}.
     */
    static WireSession open(InetSocketAddress server, int sessionTimeoutMs, int readTimeoutMs) throws IOException {
        // resolved here: a connect string's addresses are left unresolved for the client libraries
        InetSocketAddress address = server.isUnresolved()
                ? new InetSocketAddress(server.getHostString(), server.getPort()) : server;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address, readTimeoutMs);
            socket.setSoTimeout(readTimeoutMs);
            JuteWriter connect = frame();
            new ConnectRequest(PROTOCOL_VERSION, 0, sessionTimeoutMs, 0, new byte[16], false, true).writeTo(connect);
            OutputStream raw = socket.getOutputStream();
            send(raw, connect);
            ConnectResponse established = ConnectResponse.read(readFrame(new DataInputStream(socket.getInputStream()),
                    address));
            if (established.sessionId() == 0 || established.timeOutMs() <= 0) {
                socket.close();
                return null;
            }
            return new WireSession(address, socket, established.sessionId());
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    long sessionId() {
        return sessionId;
    }

    /** Writes one request (buffered until {@link #flush}); returns its xid. */
    int write(int opcode, Record body) throws IOException {
        int xid = nextXid++;
        JuteWriter request = frame();
        new RequestHeader(xid, opcode).writeTo(request);
        if (body != null) {
            body.writeTo(request);
        }
        request.setInt(0, request.size() - 4);
        out.write(request.array(), 0, request.size());
        return xid;
    }

    void flush() throws IOException {
        out.flush();
    }

    /** The next frame from the server, its reply header read; the reader is left at the body. */
    Frame read() throws IOException {
        JuteReader reader = readFrame(in, server);
        return new Frame(ReplyHeader.read(reader), reader);
    }

    /** Sends closeSession and waits for its reply; returns the reply's error code. */
    int closeSession() throws IOException {
        int xid = write(OpCode.CLOSE_SESSION, null);
        flush();
        while (true) {
            Frame reply = read();
            if (reply.header().xid() == xid) {
                return reply.header().err();
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** One frame the server sent: its header and the reader positioned at its body. */
    record Frame(ReplyHeader header, JuteReader body) {
    }

    private static JuteWriter frame() {
        JuteWriter writer = new JuteWriter(64);
        writer.writeInt(0); // the length, set once the body is written
        return writer;
    }

    private static void send(OutputStream out, JuteWriter frame) throws IOException {
        frame.setInt(0, frame.size() - 4);
        out.write(frame.array(), 0, frame.size());
        out.flush();
    }

    private static JuteReader readFrame(DataInputStream in, InetSocketAddress from) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_FRAME_BYTES) {
            throw new IOException("frame of " + length + " bytes from " + from);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return new JuteReader(body, 0, length, MAX_FRAME_BYTES);
    }
}
