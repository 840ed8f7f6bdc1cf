package dev.warden.client;

import dev.warden.client.support.TargetServer;
import dev.warden.client.support.WardenStandaloneServer;

/** The same tests as {@link OrderTest}, against a Warden server. */
class WardenOrderTest extends OrderTest {
    @Override
    TargetServer startServer() {
        return new WardenStandaloneServer();
    }
}
