package dev.warden.cli.shell;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An in-process Warden server (TTL nodes enabled) and a way to run scripted shells against it. */
final class ServerFixture implements AutoCloseable {
    private final WardenServer server;

    ServerFixture(Path dataDir) throws IOException {
        server = WardenServer.start(ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(0)
                .clientPortAddress("127.0.0.1")
                .extendedTypesEnabled(true)
                .build());
    }

    String connectString() {
        return server.connectString();
    }

    /** Runs the shell with {@code -server} pointing here, feeding {@code script} as stdin. */
    ShellRun script(String script, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("-server", connectString(), "-timeout", "10000"));
        args.addAll(Arrays.asList(extraArgs));
        return ShellRun.of(script, args.toArray(String[]::new));
    }

    @Override
    public void close() {
        server.close();
    }
}
