package dev.warden.server.config;

import dev.warden.server.security.SecurityConfig;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** The checks on a {@link ServerConfig}'s fields that go beyond a numeric range: paths, member lists, ports, digests. */
final class ServerConfigChecks {
    private static final int SHA1_LENGTH_BYTES = 20;

    private ServerConfigChecks() {
    }

    static void checkEnsemble(Map<Long, QuorumMember> members, int serverId, int clientPort) {
        if (members.isEmpty()) {
            return;
        }
        checkMemberAddresses(members);
        QuorumMember self = members.get((long) serverId);
        if (self == null) {
            throw new ConfigException("myid", "myid " + serverId + " is not among the server lines "
                    + members.keySet() + ": each member's myid must match one server.N line");
        }
        if (self.hasClientPort() && self.clientPort() != clientPort) {
            throw new ConfigException("clientPort", "clientPort=" + clientPort + " disagrees with the client port "
                    + self.clientPort() + " of server." + serverId + ": give it once, or the same in both");
        }
        if (clientPort != 0 && (clientPort == self.peerPort() || clientPort == self.electionPort())) {
            throw new ConfigException("clientPort", "clientPort=" + clientPort + " is also a peer port of server."
                    + serverId);
        }
    }

    /**
     * The checks every member list gets, in a file or in a reconfiguration: each line under its
     * own id, no host:port used twice, at least one participant.
     */
    static void checkMemberAddresses(Map<Long, QuorumMember> members) {
        if (members.isEmpty()) {
            throw new ConfigException("server", "no server.N line: a configuration needs at least one participant");
        }
        Map<String, Long> portOwners = new HashMap<>();
        for (Map.Entry<Long, QuorumMember> e : members.entrySet()) {
            QuorumMember m = e.getValue();
            if (e.getKey() != m.id()) {
                throw new ConfigException("server." + e.getKey(), "server." + e.getKey() + " holds member " + m.id());
            }
            for (QuorumMember.PeerAddress address : m.addresses()) {
                String addressHost = address.host().toLowerCase(Locale.ROOT);
                claimPort(portOwners, addressHost, address.peerPort(), m.id());
                claimPort(portOwners, addressHost, address.electionPort(), m.id());
            }
            String host = m.host().toLowerCase(Locale.ROOT);
            if (m.hasClientPort()) {
                claimPort(portOwners, m.clientHost() == null ? host : m.clientHost().toLowerCase(Locale.ROOT),
                        m.clientPort(), m.id());
            }
        }
        if (members.values().stream().allMatch(QuorumMember::observer)) {
            throw new ConfigException("server." + members.keySet().iterator().next(),
                    "every server line is an observer: an ensemble needs at least one participant");
        }
    }

    static void checkSecurity(SecurityConfig security, int clientPort, String clientPortAddress) {
        int securePort = security.secureClientPort();
        String secureAddress = Objects.requireNonNullElse(security.secureClientPortAddress(), clientPortAddress);
        if (securePort > 0 && securePort == clientPort && secureAddress.equals(clientPortAddress)) {
            throw new ConfigException("secureClientPort", "secureClientPort=" + securePort + " is also clientPort:"
                    + " give TLS its own port, or set client.portUnification=true to take TLS and plaintext"
                    + " clients on clientPort");
        }
    }

    static void checkConfigVersion(long configVersion, boolean ensemble) {
        if (configVersion < 0) {
            throw ConfigException.invalid("version", Long.toHexString(configVersion),
                    "must be a non-negative hexadecimal configuration version");
        }
        if (configVersion != 0 && !ensemble) {
            throw new ConfigException("version", "version=" + Long.toHexString(configVersion)
                    + " is set, but a standalone server has no ensemble configuration to version");
        }
    }

    private static void claimPort(Map<String, Long> owners, String host, int port, long id) {
        Long previous = owners.putIfAbsent(host + ":" + port, id);
        if (previous != null) {
            throw new ConfigException("server." + id, "server." + id + " uses " + host + ":" + port
                    + ", which server." + previous + " uses too");
        }
    }

    static Path requirePath(String key, Path path) {
        if (path == null || path.toString().isBlank()) {
            throw ConfigException.invalid(key, path == null ? "" : path, "must be a directory path");
        }
        return path;
    }

    static Set<String> normalizeWhitelist(Set<String> words) {
        Set<String> result = new TreeSet<>();
        result.add(ServerConfig.ALWAYS_ALLOWED_WORD);
        for (String word : Objects.requireNonNullElse(words, Set.<String>of())) {
            String w = word.trim();
            if (w.equals("*")) {
                result.addAll(ServerConfig.KNOWN_FOUR_LETTER_WORDS);
            } else if (ServerConfig.KNOWN_FOUR_LETTER_WORDS.contains(w)) {
                result.add(w);
            } else {
                throw ConfigException.invalid("4lw.commands.whitelist", w,
                        "must be '*' or a comma-separated list of " + new TreeSet<>(ServerConfig.KNOWN_FOUR_LETTER_WORDS));
            }
        }
        return Collections.unmodifiableSet(result);
    }

    static void checkSuperDigest(String digest) {
        if (digest == null) {
            return;
        }
        String allowed = "must look like 'super:<base64 of a SHA-1 digest>'";
        int colon = digest.indexOf(':');
        if (colon <= 0) {
            throw ConfigException.invalid("superDigest", digest, allowed);
        }
        try {
            if (Base64.getDecoder().decode(digest.substring(colon + 1)).length != SHA1_LENGTH_BYTES) {
                throw ConfigException.invalid("superDigest", digest, allowed);
            }
        } catch (IllegalArgumentException notBase64) {
            throw ConfigException.invalid("superDigest", digest, allowed);
        }
    }
}
