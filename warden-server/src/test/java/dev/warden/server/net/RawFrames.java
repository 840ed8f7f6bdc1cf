package dev.warden.server.net;

import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.Record;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;

/** Client frames written and read by hand, for tests that speak to the client port over a plain socket. */
final class RawFrames {
    private RawFrames() {
    }

    /** The records as one length-prefixed frame. */
    static byte[] frame(Record... records) {
        JuteWriter body = new JuteWriter();
        body.writeInt(0);
        for (Record record : records) {
            record.writeTo(body);
        }
        body.setInt(0, body.size() - 4);
        return Arrays.copyOf(body.array(), body.size());
    }

    /** The next frame's body. */
    static JuteReader read(DataInputStream in) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return new JuteReader(frame);
    }
}
