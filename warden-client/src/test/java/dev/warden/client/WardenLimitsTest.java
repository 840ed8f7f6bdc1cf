package dev.warden.client;

import dev.warden.client.support.TargetServer;
import dev.warden.client.support.WardenStandaloneServer;

/** The same tests as {@link LimitsTest}, against a Warden server. */
class WardenLimitsTest extends LimitsTest {
    @Override
    TargetServer startServer() {
        return new WardenStandaloneServer();
    }
}
