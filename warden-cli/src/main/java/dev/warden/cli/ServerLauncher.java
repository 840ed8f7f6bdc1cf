package dev.warden.cli;

import dev.warden.server.ServerConfig;
import dev.warden.server.WardenServer;
import java.io.IOException;

/** Starts the server for the server command; an interface so tests can run the command without one. */
@FunctionalInterface
public interface ServerLauncher {
    /** Returns once the server is serving. */
    RunningServer start(ServerConfig config) throws IOException;

    /** The production launcher: a {@link WardenServer} in this JVM. */
    static ServerLauncher warden() {
        return config -> {
            WardenServer server = WardenServer.start(config);
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
