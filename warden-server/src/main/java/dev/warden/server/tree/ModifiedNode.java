package dev.warden.server.tree;

/** A node that has been changed since its create, so it keeps mzxid, mtime and both versions. */
sealed class ModifiedNode extends DataNode permits ModifiedNode.Owned {
    long mzxid;
    long mtime;
    int version;
    int aversion;

    /** Takes the place of a pristine node: the same content, not yet changed. */
    ModifiedNode(PristineNode pristine) {
        super(pristine);
        this.mzxid = pristine.czxid;
        this.mtime = pristine.ctime;
    }

    @Override
    public long owner() {
        return NodeOwner.PERSISTENT;
    }

    @Override
    public long mzxid() {
        return mzxid;
    }

    @Override
    public long mtime() {
        return mtime;
    }

    @Override
    public int version() {
        return version;
    }

    @Override
    public int aversion() {
        return aversion;
    }

    @Override
    ModifiedNode toModified() {
        return this;
    }

    /** An ephemeral, container or TTL node that has been changed since its create. */
    static final class Owned extends ModifiedNode {
        private final long owner;

        Owned(PristineNode pristine, long owner) {
            super(pristine);
            this.owner = owner;
        }

        @Override
        public long owner() {
            return owner;
        }
    }
}
