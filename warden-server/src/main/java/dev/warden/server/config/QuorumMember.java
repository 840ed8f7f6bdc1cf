package dev.warden.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One {@code server.N} line of zoo.cfg:
 * {@code host:peerPort:electionPort[:participant|:observer][;[clientHost:]clientPort]}.
 * A host may be an IPv6 address in brackets. {@code clientPort} is 0 and {@code clientHost}
 * null when the line has no client part.
 */
public record QuorumMember(long id, String host, int peerPort, int electionPort, boolean observer,
                           String clientHost, int clientPort) {

    public QuorumMember {
        String key = "server." + id;
        if (id <= 0) {
            throw ConfigException.invalid(key, id, "the server id must be a positive number");
        }
        if (host == null || host.isBlank()) {
            throw ConfigException.invalid(key, host, "needs a host name or address");
        }
        checkPort(key, "peer port", peerPort, 1);
        checkPort(key, "election port", electionPort, 1);
        checkPort(key, "client port", clientPort, 0);
        if (peerPort == electionPort) {
            throw new ConfigException(key, key + " uses port " + peerPort + " as both peer and election port");
        }
        if (clientPort != 0 && host.equalsIgnoreCase(clientHost == null ? host : clientHost)
                && (clientPort == peerPort || clientPort == electionPort)) {
            throw new ConfigException(key, key + " uses port " + clientPort + " for clients and for peers");
        }
    }

    /** True when the line gave a client port (after {@code ;}). */
    public boolean hasClientPort() {
        return clientPort != 0;
    }

    /** Parses the value of {@code server.<id>}; errors name the key and say what is expected. */
    public static QuorumMember parse(long id, String value) {
        String key = "server." + id;
        String allowed = "must look like host:peerPort:electionPort[:participant|:observer][;[clientHost:]clientPort]";
        String text = value.trim();
        String clientPart = null;
        int semicolon = text.indexOf(';');
        if (semicolon >= 0) {
            clientPart = text.substring(semicolon + 1).trim();
            text = text.substring(0, semicolon).trim();
        }
        List<String> parts = splitHostAndPorts(text, key, value, allowed);
        if (parts.size() < 3 || parts.size() > 4) {
            throw ConfigException.invalid(key, value, allowed);
        }
        boolean observer = false;
        if (parts.size() == 4) {
            switch (parts.get(3).toLowerCase(Locale.ROOT)) {
                case "observer" -> observer = true;
                case "participant" -> observer = false;
                default -> throw ConfigException.invalid(key, value, "the role must be 'participant' or 'observer'");
            }
        }
        String clientHost = null;
        int clientPort = 0;
        if (clientPart != null) {
            List<String> client = splitHostAndPorts(clientPart, key, value, allowed);
            if (client.size() == 1) {
                clientPort = port(key, value, client.get(0), allowed);
            } else if (client.size() == 2) {
                clientHost = client.get(0);
                clientPort = port(key, value, client.get(1), allowed);
            } else {
                throw ConfigException.invalid(key, value, allowed);
            }
            if (clientPort == 0) {
                throw ConfigException.invalid(key, value, "the client port after ';' must be 1 to 65535");
            }
        }
        return new QuorumMember(id, parts.get(0), port(key, value, parts.get(1), allowed),
                port(key, value, parts.get(2), allowed), observer, clientHost, clientPort);
    }

    /** The value of this member's {@code server.N} line; {@link #parse} reads it back to an equal member. */
    public String toSpec() {
        StringBuilder out = new StringBuilder(bracketed(host)).append(':').append(peerPort).append(':')
                .append(electionPort).append(observer ? ":observer" : ":participant");
        if (hasClientPort()) {
            out.append(';');
            if (clientHost != null) {
                out.append(bracketed(clientHost)).append(':');
            }
            out.append(clientPort);
        }
        return out.toString();
    }

    private static String bracketed(String host) {
        return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    }

    /** Splits on ':' except inside a leading [IPv6] host. */
    private static List<String> splitHostAndPorts(String text, String key, String value, String allowed) {
        List<String> parts = new ArrayList<>();
        String rest = text;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0 || (close + 1 < rest.length() && rest.charAt(close + 1) != ':')) {
                throw ConfigException.invalid(key, value, allowed);
            }
            parts.add(rest.substring(1, close));
            rest = close + 1 < rest.length() ? rest.substring(close + 2) : "";
            if (rest.isEmpty()) {
                return parts;
            }
        }
        for (String part : rest.split(":", -1)) {
            parts.add(part.trim());
        }
        return parts;
    }

    private static int port(String key, String value, String text, String allowed) {
        try {
            int port = Integer.parseInt(text.trim());
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below with the whole line
        }
        throw ConfigException.invalid(key, value, allowed + " (bad port '" + text + "')");
    }

    private static void checkPort(String key, String what, int port, int min) {
        if (port < min || port > 65535) {
            throw new ConfigException(key, key + " has " + what + " " + port + ": must be " + min + " to 65535");
        }
    }
}
