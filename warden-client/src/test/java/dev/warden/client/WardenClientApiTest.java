package dev.warden.client;

import dev.warden.client.support.TargetServer;
import dev.warden.client.support.WardenStandaloneServer;

/** The same tests as {@link ClientApiContract}, against a Warden server. */
class WardenClientApiTest extends ClientApiContract {
    @Override
    TargetServer startServer() {
        return new WardenStandaloneServer();
    }
}
