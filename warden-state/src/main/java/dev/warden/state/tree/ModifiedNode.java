package dev.warden.state.tree;

/** A node that has been changed since its create, so it keeps mzxid, mtime and both versions. */
sealed class ModifiedNode extends DataNode permits ModifiedNode.Owned {
    long mzxid;
    long mtime;
    int version;
    int aversion;
    /**
     * The digest's hash of {@link #data}, kept because a changed node tends to change again:
     * a setData then hashes only the new value, not the old one as well (the old one is usually
     * out of the CPU cache, so hashing it cost more than the new one). Computed on first use,
     * so loading a snapshot hashes nothing extra; 0 means not computed yet (a value that really
     * hashes to 0 is just hashed again each time). Readers that race on the first computation
     * store the same value.
     */
    private long dataHash;

    /** Takes the place of a pristine node: the same content, not yet changed. */
    ModifiedNode(PristineNode pristine) {
        super(pristine);
        this.mzxid = pristine.czxid;
        this.mtime = pristine.ctime;
    }

    /** Replaces the data; the only way data changes once a node is modified. */
    void replaceData(byte[] newData) {
        data = newData;
        dataHash = 0;
    }

    @Override
    long dataHash() {
        if (dataHash == 0) {
            dataHash = TreeDigest.dataHash(data);
        }
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
