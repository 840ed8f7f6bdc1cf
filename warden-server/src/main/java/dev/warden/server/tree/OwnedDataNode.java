package dev.warden.server.tree;

import dev.warden.protocol.Acl;
import java.util.List;

/** An ephemeral, container or TTL node: the only kind that pays 8 bytes for an owner. */
final class OwnedDataNode extends DataNode {
    private final long owner;

    OwnedDataNode(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime, long owner) {
        super(name, nameHash64, data, acl, czxid, ctime);
        this.owner = owner;
    }

    @Override
    public long owner() {
        return owner;
    }
}
