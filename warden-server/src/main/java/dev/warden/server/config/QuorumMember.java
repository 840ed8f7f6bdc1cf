package dev.warden.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One {@code server.N} line of zoo.cfg:
 * {@code host:peerPort:electionPort[|host:peerPort:electionPort...][:participant|:observer][;[clientHost:]clientPort]}.
 * A host may be an IPv6 address in brackets. {@code clientPort} is 0 and {@code clientHost}
 * null when the line has no client part. {@code host}, {@code peerPort} and {@code electionPort}
 * are the line's first address; a line with several addresses (ZooKeeper's multi-address
 * members, one address per network) holds the others in {@code moreAddresses}, in the line's
 * order. Whether such a line is allowed (multiAddress.enabled) is the caller's check.
 */
public record QuorumMember(long id, String host, int peerPort, int electionPort, boolean observer,
                           String clientHost, int clientPort, List<PeerAddress> moreAddresses) {

    /** One address of a member: where its peer and election ports are reached on one network. */
    public record PeerAddress(String host, int peerPort, int electionPort) {
        String toSpec() {
            return bracketed(host) + ':' + peerPort + ':' + electionPort;
        }
    }

    public QuorumMember {
        String key = "server." + id;
        if (id <= 0) {
            throw ConfigException.invalid(key, id, "the server id must be a positive number");
        }
        moreAddresses = List.copyOf(moreAddresses);
        List<PeerAddress> all = new ArrayList<>();
        all.add(new PeerAddress(host, peerPort, electionPort));
        all.addAll(moreAddresses);
        for (PeerAddress address : all) {
            if (address.host() == null || address.host().isBlank()) {
                throw ConfigException.invalid(key, address.host(), "needs a host name or address");
            }
            checkPort(key, "peer port", address.peerPort(), 1);
            checkPort(key, "election port", address.electionPort(), 1);
            if (address.peerPort() == address.electionPort()) {
                throw new ConfigException(key, key + " uses port " + address.peerPort()
                        + " as both peer and election port");
            }
            if (clientPort != 0 && address.host().equalsIgnoreCase(clientHost == null ? address.host() : clientHost)
                    && (clientPort == address.peerPort() || clientPort == address.electionPort())) {
                throw new ConfigException(key, key + " uses port " + clientPort + " for clients and for peers");
            }
        }
        checkPort(key, "client port", clientPort, 0);
    }

    /** A member with one address. */
    public QuorumMember(long id, String host, int peerPort, int electionPort, boolean observer,
                        String clientHost, int clientPort) {
        this(id, host, peerPort, electionPort, observer, clientHost, clientPort, List.of());
    }

    /** Every address of the member, the first one of its line first. */
    public List<PeerAddress> addresses() {
        List<PeerAddress> all = new ArrayList<>(1 + moreAddresses.size());
        all.add(new PeerAddress(host, peerPort, electionPort));
        all.addAll(moreAddresses);
        return all;
    }

    /** True when the line lists several addresses (a|b). */
    public boolean hasSeveralAddresses() {
        return !moreAddresses.isEmpty();
    }

    /** True when the line gave a client port (after {@code ;}). */
    public boolean hasClientPort() {
        return clientPort != 0;
    }

    /**
     * Parses the value of {@code server.<id>}; errors name the key and say what is expected.
     * Several addresses separated by '|' are read here whatever multiAddress.enabled says (a
     * configuration received from the leader is read the same way); the config loader and the
     * reconfig request refuse them without it.
     */
    public static QuorumMember parse(long id, String value) {
        String key = "server." + id;
        String allowed = "must look like host:peerPort:electionPort[|host:peerPort:electionPort...]"
                + "[:participant|:observer][;[clientHost:]clientPort]";
        String text = value.trim();
        String clientPart = null;
        int semicolon = text.indexOf(';');
        if (semicolon >= 0) {
            clientPart = text.substring(semicolon + 1).trim();
            text = text.substring(0, semicolon).trim();
        }
        List<PeerAddress> addresses = new ArrayList<>();
        Boolean role = null;
        for (String addressText : text.split("\\|", -1)) {
            List<String> parts = splitHostAndPorts(addressText.trim(), key, value, allowed);
            if (parts.size() < 3 || parts.size() > 4) {
                throw ConfigException.invalid(key, value, allowed);
            }
            if (parts.size() == 4) {
                boolean observer = switch (parts.get(3).toLowerCase(Locale.ROOT)) {
                    case "observer" -> true;
                    case "participant" -> false;
                    default -> throw ConfigException.invalid(key, value, "the role must be 'participant' or 'observer'");
                };
                if (role != null && role != observer) {
                    throw ConfigException.invalid(key, value, "the addresses of one member must all have the same"
                            + " role");
                }
                role = observer;
            }
            addresses.add(new PeerAddress(parts.get(0), port(key, value, parts.get(1), allowed),
                    port(key, value, parts.get(2), allowed)));
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
        PeerAddress first = addresses.get(0);
        return new QuorumMember(id, first.host(), first.peerPort(), first.electionPort(), role != null && role,
                clientHost, clientPort, addresses.subList(1, addresses.size()));
    }

    /**
     * The value of this member's {@code server.N} line; {@link #parse} reads it back to an equal
     * member. Several addresses are written as ZooKeeper writes them: separated by '|', the role
     * once after the last.
     */
    public String toSpec() {
        StringBuilder out = new StringBuilder();
        for (PeerAddress address : addresses()) {
            if (out.length() > 0) {
                out.append('|');
            }
            out.append(address.toSpec());
        }
        out.append(observer ? ":observer" : ":participant");
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
