package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.client.SessionTimeouts.Due;
import dev.warden.protocol.ConnectResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The tick decisions of the client's side of the session timeout, with a negotiated 3,000 ms. */
class SessionTimeoutsTest {
    private static final int CONFIGURED_TIMEOUT_MS = 6_000;
    private static final int NEGOTIATED_TIMEOUT_MS = 3_000;

    private static ClientConfig config(boolean canBeReadOnly) {
        return new ClientConfig(ConnectString.parse("127.0.0.1:2181"), CONFIGURED_TIMEOUT_MS, 1_000, Runnable::run,
                RetryPolicy.none(), 10, 10, 1 << 20, 1L, false, null, null, null, canBeReadOnly);
    }

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static SessionGrant granted(ClientConfig config, boolean readOnly) {
        SessionGrant grant = new SessionGrant(config);
        grant.accept(new ConnectResponse(0, NEGOTIATED_TIMEOUT_MS, 0x42, new byte[16], readOnly, true));
        if (!readOnly) {
            grant.readWriteGranted();
        }
        return grant;
    }

    @Test
    void aConnectedSessionPingsAfterAThirdOfQuietAndDropsAfterTwoThirdsOfSilence() {
        SessionTimeouts timeouts = new SessionTimeouts(config(false), granted(config(false), false));
        timeouts.started(0);
        timeouts.received(0);
        timeouts.sent(0);
        assertEquals(Due.NOTHING, timeouts.due(ms(999), true, true));
        assertEquals(Due.PING, timeouts.due(ms(1_000), true, true));
        timeouts.sent(ms(1_000));
        assertEquals(Due.NOTHING, timeouts.due(ms(1_999), true, true));
        assertEquals(Due.DROP_CONNECTION, timeouts.due(ms(2_001), true, true));
    }

    @Test
    void aDisconnectedSessionIsGivenUpAfterTheNegotiatedTimeoutWithoutAServer() {
        SessionTimeouts timeouts = new SessionTimeouts(config(false), granted(config(false), false));
        timeouts.received(ms(10_000));
        assertEquals(Due.NOTHING, timeouts.due(ms(12_999), false, true));
        assertEquals(Due.SESSION_EXPIRED, timeouts.due(ms(13_000), false, true));
    }

    @Test
    void onlyReadOnlySessionsSoFarAreNeverGivenUp() {
        ClientConfig config = config(true);
        SessionTimeouts timeouts = new SessionTimeouts(config, granted(config, true));
        timeouts.received(0);
        assertEquals(Due.NOTHING, timeouts.due(ms(60_000), false, true));
    }

    @Test
    void noSessionWithinTheConfiguredTimeoutEndsTheClient() {
        ClientConfig config = config(false);
        SessionTimeouts timeouts = new SessionTimeouts(config, new SessionGrant(config));
        timeouts.started(ms(5_000));
        assertEquals(Due.NOTHING, timeouts.due(ms(10_999), false, false));
        assertEquals(Due.NO_SESSION, timeouts.due(ms(11_000), false, false));
    }
}
