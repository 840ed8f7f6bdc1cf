package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.Id;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A forwarded write is encoded into an array sized exactly, and decodes to what was sent. */
class AppMessageTest {
    @Test
    void forwardIsSizedExactlyAndRoundTrips() {
        byte[] body = new byte[1024];
        body[1023] = 7;
        AppMessage.Forward forward = new AppMessage.Forward(2, 0x200000001L, 17, 5, body, "127.0.0.1:40000",
                List.of(new Id("ip", "127.0.0.1"), new Id("digest", "u:h")), 30_000, new byte[16]);
        byte[] encoded = AppMessage.encode(forward);
        assertEquals(encoded.length, AppMessage.sizeHintBytes(forward));
        AppMessage.Forward decoded = (AppMessage.Forward) AppMessage.decode(encoded);
        assertArrayEquals(body, decoded.body());
        assertEquals(forward.identities(), decoded.identities());
        assertEquals(forward.address(), decoded.address());
        assertEquals(forward.timeoutMs(), decoded.timeoutMs());
        assertArrayEquals(forward.password(), decoded.password());
    }

    @Test
    void otherMessagesStillRoundTrip() {
        AppMessage.Attach attach = new AppMessage.Attach(3, 0x300000002L);
        assertEquals(attach, AppMessage.decode(AppMessage.encode(attach)));
        for (AppMessage message : List.of(new AppMessage.Digest(0x100000005L, -7), new AppMessage.DigestReport(9, 42),
                new AppMessage.Resync(0x200000001L, Long.MIN_VALUE))) {
            assertEquals(message, AppMessage.decode(AppMessage.encode(message)));
        }
    }
}
