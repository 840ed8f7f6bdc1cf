package dev.warden.chaos.net;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How a run's members are connected: {@code netns}, each in a network namespace of its own with
 * cuts made by iptables (needs root, {@code ip netns} and iptables); {@code relay}, all on
 * loopback with cuts made by the relays; {@code auto}, netns when this machine allows it.
 */
public enum NetworkMode {
    NETNS, RELAY, AUTO;

    public static NetworkMode parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--network is netns, relay or auto, was '" + text + "'");
        }
    }

    /** The mode chosen and, for a relay run that asked for auto, why namespaces were not used. */
    public record Choice(NetworkMode mode, Optional<String> why) {
    }

    /**
     * NETNS or RELAY. Auto takes netns unless {@code unavailableBecause} gives a reason; netns asked
     * for on a machine that cannot do it is an error naming the reason and the way out.
     */
    public Choice resolve(Supplier<Optional<String>> unavailableBecause) {
        if (this == RELAY) {
            return new Choice(RELAY, Optional.empty());
        }
        Optional<String> reason = unavailableBecause.get();
        if (reason.isEmpty()) {
            return new Choice(NETNS, Optional.empty());
        }
        if (this == NETNS) {
            throw new IllegalStateException("--network netns is not possible here: " + reason.get()
                    + "; run as root with iptables installed, or use --network relay");
        }
        return new Choice(RELAY, reason);
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
