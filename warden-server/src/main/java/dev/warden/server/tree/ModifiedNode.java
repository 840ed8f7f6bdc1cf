package dev.warden.server.tree;

/** A node that has been changed since its create, so it keeps mzxid, mtime and both versions. */
sealed class ModifiedNode extends DataNode permits ModifiedNode.Owned {
    long mzxid;
    long mtime;
    int version;
    int aversion;
    /**
     * The digest's hash of {@link #data}, kept because a changed node tends to change again:
     * a setData then hashes only the new value, not the old one as well (the old one is usually
     * out of the CPU cache, so hashing it cost more than the new one).
     */
    private long dataHash;

    /** Takes the place of a pristine node: the same content, not yet changed. */
    ModifiedNode(PristineNode pristine) {
        super(pristine);
        this.mzxid = pristine.czxid;
        this.mtime = pristine.ctime;
        this.dataHash = TreeDigest.dataHash(data);
    }

    /** Replaces the data; the only way data changes once a node is modified. */
    void replaceData(byte[] newData) {
        data = newData;
        dataHash = TreeDigest.dataHash(newData);
    }

    @Override
    long dataHash() {
        return dataHash;
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
