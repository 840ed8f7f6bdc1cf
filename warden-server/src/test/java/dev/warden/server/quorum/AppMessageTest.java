package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetDataRequest;
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
    void aBodyWrittenInPlaceDecodesAsTheSameBytesAndEncodesAsTheRecordDoes() {
        byte[] value = new byte[1024];
        value[0] = 9;
        SetDataRequest body = new SetDataRequest("/app/\u00e9t\u00e9", value, 4);
        List<Id> identities = List.of(new Id("ip", "10.0.0.8"));
        byte[] encoded = AppMessage.encodeForward(2, 0x200000001L, 17, OpCode.SET_DATA, body, "10.0.0.8",
                identities, 30_000, null);
        AppMessage.Forward decoded = (AppMessage.Forward) AppMessage.decode(encoded);
        assertArrayEquals(body.toBytes(), decoded.body());
        assertEquals(17, decoded.xid());
        assertEquals(OpCode.SET_DATA, decoded.opcode());
        assertEquals(identities, decoded.identities());
        assertArrayEquals(encoded, AppMessage.encode(decoded), "the same bytes as the two-step encoding");

        byte[] noBody = AppMessage.encodeForward(2, 5, 0, OpCode.CREATE_SESSION, null, "10.0.0.8", identities,
                30_000, new byte[16]);
        assertArrayEquals(new byte[0], ((AppMessage.Forward) AppMessage.decode(noBody)).body());
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
