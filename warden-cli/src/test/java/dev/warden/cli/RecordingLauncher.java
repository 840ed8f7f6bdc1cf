package dev.warden.cli;

import dev.warden.server.config.ServerConfig;
import java.util.ArrayList;
import java.util.List;

/** A launcher that binds nothing and remembers what it was asked to start and stop. */
final class RecordingLauncher implements ServerLauncher {
    final List<ServerConfig> started = new ArrayList<>();
    int closeCount;

    @Override
    public RunningServer start(ServerConfig config) {
        started.add(config);
        return new RunningServer() {
            @Override
            public String connectString() {
                return config.clientPortAddress() + ":" + config.clientPort();
            }

            @Override
            public void close() {
                closeCount++;
            }
        };
    }
}
