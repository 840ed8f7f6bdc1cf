package dev.warden.client;

import dev.warden.client.support.ApacheStandaloneServer;
import dev.warden.client.support.TargetServer;

/** The API contract against an in-process Apache ZooKeeper 3.9 server. */
class ApacheClientApiTest extends ClientApiContract {
    @Override
    TargetServer startServer() {
        return new ApacheStandaloneServer();
    }
}
