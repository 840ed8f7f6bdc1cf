package dev.warden.bench.startup;

import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.ConnectResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Asks one server for a new session over a raw socket, as a client's first frame does, and
 * closes the session again. A member that is not serving yet refuses the connection or closes
 * it; the Apache client would then wait up to a second before its next try, which would blur a
 * start-up measurement, so this probe can be polled every few milliseconds instead.
 */
final class SessionProbe {
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final int IO_TIMEOUT_MS = 2_000;
    private static final int CLOSE_SESSION = -11;

    private SessionProbe() {
    }

    /** True if the server at {@code port} on loopback granted a new session (closed again before returning). */
    static boolean newSession(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), IO_TIMEOUT_MS);
            socket.setSoTimeout(IO_TIMEOUT_MS);
            socket.setTcpNoDelay(true);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            JuteWriter request = new JuteWriter();
            new ConnectRequest(0, 0, SESSION_TIMEOUT_MS, 0, new byte[16], false, true).writeTo(request);
            byte[] frame = request.toByteArray();
            out.writeInt(frame.length);
            out.write(frame);
            out.flush();
            int length = in.readInt();
            if (length <= 0 || length > 1 << 16) {
                return false;
            }
            byte[] reply = new byte[length];
            in.readFully(reply);
            ConnectResponse response = ConnectResponse.read(new JuteReader(reply, 0, length, length));
            if (response.timeOutMs() <= 0 || response.sessionId() == 0) {
                return false;
            }
            // close it, so the probes leave no sessions behind to expire later
            out.writeInt(8);
            out.writeInt(1);
            out.writeInt(CLOSE_SESSION);
            out.flush();
            in.readInt();
            return true;
        } catch (IOException | RuntimeException notServing) {
            return false;
        }
    }
}
