package dev.warden.client;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateTTLRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import java.util.List;

/** Builds create requests, whose opcode depends on the mode (containers and TTL nodes have their own). */
final class Requests {
    /** The largest TTL the wire format can carry (40 bits of milliseconds). */
    static final long MAX_TTL_MS = 0xFF_FFFF_FFFFL;

    private Requests() {
    }

    static Record create(String serverPath, byte[] data, List<Acl> acl, CreateMode mode, long ttlMs) {
        if (acl == null || acl.isEmpty()) {
            throw new IllegalArgumentException("acl must not be empty");
        }
        if (mode.isTtl()) {
            if (ttlMs <= 0 || ttlMs > MAX_TTL_MS) {
                throw new IllegalArgumentException("ttl must be in 1.." + MAX_TTL_MS + " ms, got " + ttlMs);
            }
            return new CreateTTLRequest(serverPath, data, acl, mode.flags(), ttlMs);
        }
        return new CreateRequest(serverPath, data, acl, mode.flags());
    }

    static int createOpCode(CreateMode mode, boolean withStat) {
        if (mode.isContainer()) {
            return OpCode.CREATE_CONTAINER;
        }
        if (mode.isTtl()) {
            return OpCode.CREATE_TTL;
        }
        return withStat ? OpCode.CREATE2 : OpCode.CREATE;
    }

    /** Inside a multi every create reports a Stat, so plain creates use create2 there. */
    static int multiCreateOpCode(CreateMode mode) {
        return createOpCode(mode, true);
    }
}
