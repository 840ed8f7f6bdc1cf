package dev.warden.bench.load;

import dev.warden.client.ConnectString;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Fails a run at once, with the reason, when no server of its connect string accepts a TCP
 * connection. Without it a mistyped port or a server that is not running shows up only after
 * the session timeout (30 s by default), as "no session", while the client retries in the
 * background.
 */
final class ListeningCheck {
    static final int CONNECT_TIMEOUT_MS = 2_000;

    private ListeningCheck() {
    }

    /** Returns as soon as one host accepts a connection; otherwise says why each one did not. */
    static void requireOneListening(String connectString) throws IOException {
        List<String> failures = new ArrayList<>();
        for (InetSocketAddress host : ConnectString.parse(connectString).hosts()) {
            String name = host.getHostString() + ":" + host.getPort();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host.getHostString(), host.getPort()), CONNECT_TIMEOUT_MS);
                return;
            } catch (UnknownHostException e) {
                failures.add(name + " (unknown host)");
            } catch (IOException e) {
                failures.add(name + " (" + e.getMessage() + ")");
            }
        }
        throw new IOException("no server accepts connections at " + String.join(", ", failures));
    }
}
