package dev.warden.client;

import dev.warden.client.support.TargetServer;
import dev.warden.client.support.WardenStandaloneServer;

/** The same tests as {@link SessionTest}, against a Warden server. */
class WardenSessionTest extends SessionTest {
    @Override
    TargetServer startServer() {
        return new WardenStandaloneServer();
    }
}
