package dev.warden.server.net;

import dev.warden.protocol.OpCode;

/**
 * What a read-only session (readonlymode.enabled, a member cut off from its quorum) may not do:
 * the opcodes ZooKeeper's read-only server answers NOTREADONLY. {@code sync} is among them (it
 * needs a leader), and so is a lone {@code check}; {@code multiRead} is a read and is answered.
 */
final class ReadOnlyRequests {
    private ReadOnlyRequests() {
    }

    static boolean refused(int opcode) {
        return switch (opcode) {
            case OpCode.SYNC, OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_TTL, OpCode.CREATE_CONTAINER,
                 OpCode.DELETE, OpCode.DELETE_CONTAINER, OpCode.SET_DATA, OpCode.RECONFIG, OpCode.SET_ACL,
                 OpCode.MULTI, OpCode.CHECK -> true;
            default -> false;
        };
    }
}
