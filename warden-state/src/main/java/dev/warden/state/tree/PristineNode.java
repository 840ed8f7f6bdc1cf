package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import java.util.List;

/** A node never changed since its create: mzxid = czxid, mtime = ctime, version = aversion = 0. */
sealed class PristineNode extends DataNode permits PristineNode.Owned {
    PristineNode(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime) {
        super(name, nameHash64, data, acl, czxid, ctime);
    }

    @Override
    public long owner() {
        return NodeOwner.PERSISTENT;
    }

    @Override
    public long mzxid() {
        return czxid;
    }

    @Override
    public long mtime() {
        return ctime;
    }

    @Override
    public int version() {
        return 0;
    }

    @Override
    public int aversion() {
        return 0;
    }

    @Override
    ModifiedNode toModified() {
        return new ModifiedNode(this);
    }

    /** An ephemeral, container or TTL node never changed since its create. */
    static final class Owned extends PristineNode {
        private final long owner;

        Owned(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime, long owner) {
            super(name, nameHash64, data, acl, czxid, ctime);
            this.owner = owner;
        }

        @Override
        public long owner() {
            return owner;
        }

        @Override
        ModifiedNode toModified() {
            return new ModifiedNode.Owned(this, owner);
        }
    }
}
