package dev.warden.state.pipeline;

import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.Record;

/**
 * The body of the AdminServer's restore request: a whole snapshot file, already verified by
 * {@link SnapshotRestore#verify}. It travels the write path under {@link #OPCODE}, which no
 * client can send (the client port accepts only ZooKeeper's opcodes).
 */
public record RestoreRequest(byte[] snapshotFile) implements Record {
    /** Not a ZooKeeper opcode: the server makes these requests itself. */
    public static final int OPCODE = -20;

    /** Reads what {@link #writeTo} wrote (a member forwards the request to its leader). */
    public static RestoreRequest read(JuteReader in) {
        byte[] file = in.readBuffer();
        if (file == null) {
            throw new dev.warden.protocol.ProtocolException("restore request without a snapshot");
        }
        return new RestoreRequest(file);
    }

    @Override
    public void writeTo(JuteWriter out) {
        out.writeBuffer(snapshotFile);
    }

    @Override
    public int sizeHintBytes() {
        return 4 + snapshotFile.length;
    }
}
