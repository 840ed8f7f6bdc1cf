package dev.warden.state.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.protocol.Perms;
import dev.warden.protocol.ProtocolException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TxnCodecTest {
    @Test
    void everyBodyRoundTrips() {
        List<TxnBody> bodies = List.of(
                new TxnBody.Create("/a", new byte[] {1, 2}, Perms.OPEN_ACL_UNSAFE, 0x1234L, 7),
                new TxnBody.Create("/b", null, Perms.READ_ACL_UNSAFE, Long.MIN_VALUE, 0),
                new TxnBody.Delete("/a"),
                new TxnBody.SetData("/a", new byte[0], 3),
                new TxnBody.SetAcl("/a", Perms.OPEN_ACL_UNSAFE, 2),
                new TxnBody.CreateSession(6000, new byte[16]),
                new TxnBody.CloseSession(List.of("/e2", "/e1")),
                new TxnBody.Check("/a"),
                new TxnBody.Multi(List.of(new TxnBody.Delete("/x"), new TxnBody.Check("/y"))),
                new TxnBody.Restore(new byte[] {0x57, 0x53, 0x4e, 0x50, 0, 0, 0, 2}));
        for (TxnBody body : bodies) {
            Txn txn = new Txn(0x100000001L, 42, 0x500000007L, 1_700_000_000_000L, body);
            Txn decoded = Txn.decode(txn.encode());
            assertArrayEquals(txn.encode(), decoded.encode(), body.toString());
            assertEquals(txn.zxid(), decoded.zxid());
            assertEquals(txn.sessionId(), decoded.sessionId());
            // the writer is sized from the hint, so a wrong hint would cost copies (too small) or
            // a trimming copy (too large); for these ASCII bodies it must be exact
            assertEquals(txn.encode().length, 29 + TxnBody.sizeHintBytes(body), body.toString());
        }
    }

    @Test
    void nonAsciiPathsStillEncodeWhole() {
        Txn txn = new Txn(1, 2, 3, 4, new TxnBody.SetData("/é/ü", new byte[1024], 1));
        TxnBody.SetData decoded = (TxnBody.SetData) Txn.decode(txn.encode()).body();
        assertEquals("/é/ü", decoded.path());
        assertEquals(1024, decoded.data().length);
    }

    @Test
    void truncatedOrUnknownRecordsAreProtocolErrors() {
        byte[] bytes = new Txn(1, 1, 1, 1, new TxnBody.Delete("/a")).encode();
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, cut);
            assertThrows(ProtocolException.class, () -> Txn.decode(truncated));
        }
        bytes[0] = 99;
        byte[] badVersion = bytes;
        assertThrows(ProtocolException.class, () -> Txn.decode(badVersion));
    }
}
