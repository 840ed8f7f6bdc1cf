package dev.warden.server.it;

import java.util.ArrayList;
import java.util.List;

/** Tracks the clients a test opens so that every one is closed, even when the test fails. */
final class Clients implements AutoCloseable {
    private final String connectString;
    private final List<Client> open = new ArrayList<>();

    Clients(String connectString) {
        this.connectString = connectString;
    }

    Client connect() throws Exception {
        return track(Client.connect(connectString));
    }

    Client connect(int sessionTimeoutMs) throws Exception {
        return track(Client.connect(connectString, sessionTimeoutMs));
    }

    Client connectTo(String otherConnectString, int sessionTimeoutMs) throws Exception {
        return track(Client.connect(otherConnectString, sessionTimeoutMs));
    }

    Client attach(int sessionTimeoutMs, long sessionId, byte[] password) throws Exception {
        return track(Client.attach(connectString, sessionTimeoutMs, sessionId, password));
    }

    Client track(Client client) {
        open.add(client);
        return client;
    }

    @Override
    public void close() throws Exception {
        for (Client client : open) {
            client.close();
        }
    }
}
