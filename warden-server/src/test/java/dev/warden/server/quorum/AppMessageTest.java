package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.SetDataRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A forwarded write is encoded in one pass into an array sized exactly, and decodes to what was
 * sent; a body that does not decode is a forward the leader refuses, not a lost message.
 */
class AppMessageTest {
    @Test
    void forwardIsSizedExactlyAndRoundTrips() {
        byte[] value = new byte[1024];
        value[1023] = 7;
        SetDataRequest body = new SetDataRequest("/app/config", value, 4);
        AppMessage.Forward forward = new AppMessage.Forward(2, 0x200000001L, 17, OpCode.SET_DATA, body,
                "127.0.0.1:40000", List.of(new Id("ip", "127.0.0.1"), new Id("digest", "u:h")), 30_000, new byte[16]);
        byte[] encoded = AppMessage.encode(forward);
        assertEquals(encoded.length, AppMessage.sizeHintBytes(forward), "the hint is exact for this body");
        AppMessage.Forward decoded = (AppMessage.Forward) AppMessage.decode(encoded);
        assertArrayEquals(body.toBytes(), decoded.body().toBytes());
        assertEquals(17, decoded.xid());
        assertEquals(OpCode.SET_DATA, decoded.opcode());
        assertEquals(forward.identities(), decoded.identities());
        assertEquals(forward.address(), decoded.address());
        assertEquals(forward.timeoutMs(), decoded.timeoutMs());
        assertArrayEquals(forward.password(), decoded.password());
        assertArrayEquals(encoded, AppMessage.encode(decoded), "decoding and encoding again gives the same bytes");
    }

    @Test
    void aCreateSessionHasNoBody() {
        AppMessage.Forward forward = new AppMessage.Forward(2, 5, 0, OpCode.CREATE_SESSION, null, "10.0.0.8",
                List.of(new Id("ip", "10.0.0.8")), 30_000, new byte[16]);
        AppMessage.Forward decoded = (AppMessage.Forward) AppMessage.decode(AppMessage.encode(forward));
        assertNull(decoded.body());
        assertArrayEquals(forward.password(), decoded.password());
    }

    @Test
    void aBodyThatDoesNotDecodeIsAnUnreadableForward() {
        Record garbage = out -> out.writeInt(-5);
        byte[] encoded = AppMessage.encode(new AppMessage.Forward(2, 0x200000001L, 9, OpCode.SET_DATA, garbage,
                "10.0.0.8", List.of(), 30_000, new byte[0]));
        AppMessage.UnreadableForward unreadable = (AppMessage.UnreadableForward) AppMessage.decode(encoded);
        assertEquals(new AppMessage.UnreadableForward(2, 0x200000001L, 9), unreadable);
        assertThrows(IllegalArgumentException.class, () -> AppMessage.encode(unreadable), "it is never sent");
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
