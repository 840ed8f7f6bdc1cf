package dev.warden.cli.shell;

import java.util.ArrayList;
import java.util.List;

/** Reads the member lines of /zookeeper/config, for {@code config -c}. */
final class ConfigMemberLines {
    private ConfigMemberLines() {
    }

    /**
     * The client addresses of the member lines ({@code server.N=host:p:e[:role];[clientHost:]clientPort}),
     * comma-separated, as zkCli's {@code config -c} prints them; members without a client part
     * are left out. Empty for a standalone server's empty config.
     */
    static String connectString(String config) {
        List<String> addresses = new ArrayList<>();
        for (String line : config.split("\n")) {
            if (!line.startsWith("server.")) {
                continue;
            }
            String spec = line.substring(line.indexOf('=') + 1);
            int semicolon = spec.indexOf(';');
            if (semicolon < 0) {
                continue;
            }
            String client = spec.substring(semicolon + 1).trim();
            if (!client.contains(":")) {
                String host = spec.substring(0, spec.indexOf(':'));
                client = host + ":" + client;
            }
            addresses.add(client);
        }
        return String.join(",", addresses);
    }
}
