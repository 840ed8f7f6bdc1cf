package dev.warden.server.pipeline;

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

    @Override
    public void writeTo(JuteWriter out) {
        out.writeBuffer(snapshotFile);
    }

    @Override
    public int sizeHintBytes() {
        return 4 + snapshotFile.length;
    }
}
