package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.warden.client.support.TargetServer;
import dev.warden.client.support.WardenStandaloneServer;
import dev.warden.protocol.ErrorCode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class WardenClientParityTest extends ClientParityTest {
    @Override
    TargetServer startServer() {
        return new WardenStandaloneServer();
    }

    /** reconfigEnabled is off by default: the admin view gets ZooKeeper's "disabled" answer and the session goes on. */
    @Test
    void reconfigIsRefusedAsDisabled() {
        try (WardenClient client = WardenClient.builder().connectString(server.connectString())
                .sessionTimeout(Duration.ofSeconds(10)).connect().join()) {
            long session = client.sessionId();
            Throwable refused = client.admin().reconfigure(List.of(), List.of("2"), WardenAdmin.ANY_VERSION)
                    .handle((ok, e) -> e).join();
            Throwable cause = refused instanceof CompletionException ? refused.getCause() : refused;
            assertEquals(ErrorCode.RECONFIG_DISABLED, assertInstanceOf(WardenException.class, cause).code());
            client.exists("/").join();
            assertEquals(session, client.sessionId());
        }
    }
}
