package dev.warden.cli.cluster;

import dev.warden.server.net.FourLetterWordClient;
import java.io.IOException;

/** What a member says it is, from its {@code srvr} answer. */
public enum MemberMode {
    LEADER,
    FOLLOWER,
    OBSERVER,
    STANDALONE,
    /** It answered, but is not serving (no quorum, or still synchronizing). */
    NOT_SERVING,
    /** No answer in time: down, paused, or not listening yet. */
    UNREACHABLE;

    /** Serving clients as part of an ensemble. */
    public boolean servesInEnsemble() {
        return this == LEADER || this == FOLLOWER || this == OBSERVER;
    }

    /** Reads the {@code Mode:} line of a {@code srvr} reply; a reply without one is NOT_SERVING. */
    /** The member's mode from its {@code srvr} answer; any I/O failure (refused, timed out, reset) is UNREACHABLE. */
    public static MemberMode probe(String host, int port, int timeoutMs) {
        try {
            return fromSrvr(FourLetterWordClient.send(host, port, "srvr", timeoutMs));
        } catch (IOException e) {
            return UNREACHABLE;
        }
    }

    public static MemberMode fromSrvr(String reply) {
        for (String line : reply.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("Mode:")) {
                String mode = trimmed.substring("Mode:".length()).trim();
                return switch (mode) {
                    case "leader" -> LEADER;
                    case "follower" -> FOLLOWER;
                    case "observer" -> OBSERVER;
                    case "standalone" -> STANDALONE;
                    default -> NOT_SERVING;
                };
            }
        }
        return NOT_SERVING;
    }
}
