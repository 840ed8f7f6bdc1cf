package dev.warden.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A parsed connect string {@code host1:port1,host2:port2/optional/chroot}. A host without a
 * port gets 2181; an IPv6 literal goes in brackets ({@code [::1]:2181}).
 *
 * @param hosts  the servers, in the order given
 * @param chroot the chroot path without trailing slash, or "" for none
 */
public record ConnectString(List<InetSocketAddress> hosts, String chroot) {
    public static final int DEFAULT_PORT = 2181;

    public ConnectString {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("connect string names no host");
        }
        hosts = List.copyOf(hosts);
    }

    public static ConnectString parse(String text) {
        String hostPart = text;
        String chroot = "";
        int slash = text.indexOf('/');
        if (slash >= 0) {
            hostPart = text.substring(0, slash);
            chroot = text.substring(slash);
            if (chroot.equals("/")) {
                chroot = "";
            } else {
                Paths.validate(chroot);
            }
        }
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (String entry : hostPart.split(",")) {
            String trimmed = entry.trim();
            if (!trimmed.isEmpty()) {
                hosts.add(parseHost(trimmed));
            }
        }
        return new ConnectString(hosts, chroot);
    }

    private static InetSocketAddress parseHost(String entry) {
        String host = entry;
        int port = DEFAULT_PORT;
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed IPv6 literal in " + entry);
            }
            host = entry.substring(1, close);
            if (close + 1 < entry.length()) {
                port = parsePort(entry, entry.substring(close + 1));
            }
        } else {
            int colon = entry.lastIndexOf(':');
            if (colon >= 0) {
                host = entry.substring(0, colon);
                port = portNumber(entry, entry.substring(colon + 1));
            }
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("no host name in '" + entry + "'");
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    private static int parsePort(String entry, String rest) {
        if (!rest.startsWith(":")) {
            throw new IllegalArgumentException("expected :port after ] in " + entry);
        }
        return portNumber(entry, rest.substring(1));
    }

    private static int portNumber(String entry, String text) {
        int port;
        try {
            port = Integer.parseInt(text);
        } catch (NumberFormatException notANumber) {
            port = -1;
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port '" + text + "' in '" + entry + "' (1-65535)");
        }
        return port;
    }

    /** The hosts in a random order, so that clients spread over the ensemble. */
    public List<InetSocketAddress> shuffledHosts(Random random) {
        List<InetSocketAddress> copy = new ArrayList<>(hosts);
        Collections.shuffle(copy, random);
        return copy;
    }
}
