package dev.warden.client;

import java.util.ArrayList;
import java.util.List;

/**
 * The addresses clients reach an ensemble's members at, read from the text of
 * {@code /zookeeper/config}: each {@code server.N=host:peer:election[:role][;[clientHost:]clientPort]}
 * line gives one, as ZooKeeper's client-side configuration does. A line without a client part
 * (a member serving no clients) gives none; a client host of {@code 0.0.0.0} or {@code ::} (the
 * member listens everywhere) is replaced by the member's own host. Group, weight and version
 * lines are not members.
 */
final class ConfigClientAddresses {
    private ConfigClientAddresses() {
    }

    /** {@code host:port} per member that serves clients, in the order of the lines. */
    static List<String> parse(String configText) {
        List<String> addresses = new ArrayList<>();
        for (String rawLine : configText.split("\n")) {
            String line = rawLine.trim();
            int eq = line.indexOf('=');
            if (!line.startsWith("server.") || eq < 0) {
                continue;
            }
            String spec = line.substring(eq + 1);
            int semicolon = spec.indexOf(';');
            if (semicolon < 0) {
                continue;
            }
            String clientPart = spec.substring(semicolon + 1).trim();
            if (clientPart.isEmpty()) {
                continue;
            }
            String memberHost = hostOf(spec.substring(0, semicolon).split("\\|")[0]);
            int colon = clientPart.lastIndexOf(':');
            String clientHost = colon < 0 ? "" : clientPart.substring(0, colon);
            String port = clientPart.substring(colon + 1);
            if (clientHost.isEmpty() || isWildcard(clientHost)) {
                clientHost = memberHost;
            }
            addresses.add(bracketed(clientHost) + ":" + port);
        }
        return addresses;
    }

    /** The host of {@code host:peer:election[:role]}, an IPv6 literal without its brackets. */
    private static String hostOf(String memberAddress) {
        if (memberAddress.startsWith("[")) {
            int close = memberAddress.indexOf(']');
            return close < 0 ? memberAddress : memberAddress.substring(1, close);
        }
        int colon = memberAddress.indexOf(':');
        return colon < 0 ? memberAddress : memberAddress.substring(0, colon);
    }

    private static boolean isWildcard(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return bare.equals("0.0.0.0") || bare.equals("::") || bare.equals("0:0:0:0:0:0:0:0");
    }

    private static String bracketed(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
