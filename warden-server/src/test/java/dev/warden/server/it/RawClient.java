package dev.warden.server.it;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.Record;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare-bones protocol client for requests the Apache client refuses to send (it validates
 * some arguments locally), so that the server's own checks can be exercised, and for byte
 * layouts it does not control (several requests in one socket write).
 */
public final class RawClient implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 10_000;
    private static final int MAX_FRAME_BYTES = 1 << 20;

    private final Socket socket;
    private final DataOutputStream out;
    private final DataInputStream in;
    private int nextXid = 1;

    private RawClient(Socket socket) throws IOException {
        this.socket = socket;
        // buffered, so that a frame, or a run of frames up to a flush, leaves in one write
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 256 * 1024));
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** Connects and completes the handshake for a new session. */
    public static RawClient connect(String connectString, int sessionTimeoutMs) throws IOException {
        String[] hostPort = connectString.split(":");
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), READ_TIMEOUT_MS);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        RawClient client = new RawClient(socket);
        client.send(new ConnectRequest(0, 0, sessionTimeoutMs, 0, new byte[16], false, true));
        client.readFrame();
        return client;
    }

    /** Sends one request and returns the reply header (skipping watch notifications). */
    public ReplyHeader call(int opCode, Record body) throws IOException {
        int xid = nextXid++;
        JuteWriter writer = new JuteWriter();
        new RequestHeader(xid, opCode).writeTo(writer);
        body.writeTo(writer);
        writeFrame(writer.toByteArray());
        while (true) {
            ReplyHeader header = ReplyHeader.read(new JuteReader(readFrame()));
            if (header.xid() == xid) {
                return header;
            }
        }
    }

    /**
     * Sends one request per body, all in a single socket write so that the server receives
     * them together, and returns the reply headers in the order they came (skipping watch
     * notifications).
     */
    public List<ReplyHeader> callAllAtOnce(int opCode, List<? extends Record> bodies) throws IOException {
        int firstXid = nextXid;
        for (Record body : bodies) {
            JuteWriter writer = new JuteWriter();
            new RequestHeader(nextXid++, opCode).writeTo(writer);
            body.writeTo(writer);
            byte[] payload = writer.toByteArray();
            out.writeInt(payload.length);
            out.write(payload);
        }
        out.flush();
        List<ReplyHeader> replies = new ArrayList<>(bodies.size());
        while (replies.size() < bodies.size()) {
            ReplyHeader header = ReplyHeader.read(new JuteReader(readFrame()));
            if (header.xid() >= firstXid) {
                replies.add(header);
            }
        }
        return replies;
    }

    private void send(Record record) throws IOException {
        JuteWriter writer = new JuteWriter();
        record.writeTo(writer);
        writeFrame(writer.toByteArray());
    }

    private void writeFrame(byte[] payload) throws IOException {
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
    }

    private byte[] readFrame() throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_FRAME_BYTES) {
            throw new IOException("bad frame length " + length);
        }
        byte[] payload = new byte[length];
        in.readFully(payload);
        return payload;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
