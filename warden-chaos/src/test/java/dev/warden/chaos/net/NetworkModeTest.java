package dev.warden.chaos.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How {@code --network} is read and resolved against what the machine allows. */
class NetworkModeTest {
    private static final Optional<String> NOT_ROOT = Optional.of("not root");

    @Test
    void autoTakesNamespacesWhenPossibleAndOtherwiseSaysWhyItUsesRelays() {
        assertEquals(NetworkMode.NETNS, NetworkMode.AUTO.resolve(Optional::empty).mode());
        NetworkMode.Choice fallback = NetworkMode.AUTO.resolve(() -> NOT_ROOT);
        assertEquals(NetworkMode.RELAY, fallback.mode());
        assertEquals(NOT_ROOT, fallback.why());
    }

    @Test
    void netnsWhereImpossibleIsRefusedWithTheReasonAndTheWayOut() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> NetworkMode.NETNS.resolve(() -> NOT_ROOT));
        assertTrue(refused.getMessage().contains("not root") && refused.getMessage().contains("--network relay"),
                refused.getMessage());
    }

    @Test
    void relayNeverAsksTheMachineAndUnknownNamesAreRefused() {
        assertEquals(NetworkMode.RELAY, NetworkMode.RELAY.resolve(() -> {
            throw new AssertionError("relay needs nothing from the machine");
        }).mode());
        assertEquals(NetworkMode.NETNS, NetworkMode.parse(" NetNS "));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> NetworkMode.parse("bridge"));
        assertTrue(bad.getMessage().contains("--network"), bad.getMessage());
    }
}
