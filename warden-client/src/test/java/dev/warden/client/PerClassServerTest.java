package dev.warden.client;

import dev.warden.client.support.ApacheStandaloneServer;
import dev.warden.client.support.TargetServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** One server for all tests of a class: Apache ZooKeeper here, Warden in the Warden* subclasses. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PerClassServerTest {
    TargetServer server;

    /** The server under test; subclasses run the same tests against another server. */
    TargetServer startServer() {
        return new ApacheStandaloneServer();
    }

    @BeforeAll
    void start() {
        server = startServer();
    }

    @AfterAll
    void stop() {
        server.close();
    }
}
