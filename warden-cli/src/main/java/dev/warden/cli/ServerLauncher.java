package dev.warden.cli;

import dev.warden.cli.faults.DiskFaultControl;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import java.io.IOException;
import java.util.Optional;

/** Starts the server for the server command; an interface so tests can run the command without one. */
@FunctionalInterface
public interface ServerLauncher {
    /** Returns once the server is serving. */
    RunningServer start(ServerConfig config) throws IOException;

    /**
     * The production launcher: a {@link WardenServer} in this JVM. With the system property
     * {@value DiskFaultControl#PROPERTY} set (fault tests only), the log's disk can be made slow,
     * full or failing while it runs.
     */
    static ServerLauncher warden() {
        return config -> {
            Optional<DiskFaultControl> faults = DiskFaultControl.fromSystemProperty();
            WardenServer server = faults.isPresent()
                    ? WardenServer.start(config, Clock.SYSTEM, faults.get().channels())
                    : WardenServer.start(config);
            return new RunningServer() {
                @Override
                public String connectString() {
                    return server.connectString();
                }

                @Override
                public void close() {
                    server.close();
                }
            };
        };
    }
}
