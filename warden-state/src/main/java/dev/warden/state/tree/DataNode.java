package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Stat;
import java.util.ArrayList;
import java.util.List;

/**
 * One znode. Mutated only by the applier thread while it holds the tree's write lock; read by
 * other threads under the read lock, so fields need no other synchronization. Data arrays are
 * never modified after they are stored, so a reader may hand one out without copying.
 *
 * <p>Kept small because there are millions. A node knows its own name (UTF-8) but not its path.
 * What only a parent needs (children, pzxid, the cversion counter) lives in a
 * {@link ChildTable} made on the first child. A node that was never changed after its create
 * ({@link PristineNode}, 48 bytes with compressed oops) has no fields for mzxid, mtime, version
 * and aversion, since they still equal czxid, ctime, 0 and 0; the first setData or setACL
 * replaces it in its parent with a {@link ModifiedNode} (80 bytes, with the hash of its data
 * kept so the next setData need not hash the old value again). Only ephemeral, container
 * and TTL nodes pay 8 more bytes for an owner.
 */
public abstract sealed class DataNode permits PristineNode, ModifiedNode {
    final byte[] name;
    /** Low half of {@link NodeNames#hash(byte[])}, so child tables never re-read the name to hash. */
    final int nameHash;
    byte[] data;
    List<Acl> acl;
    final long czxid;
    final long ctime;
    /** Null while the node never had a child and its cversion counter and pzxid are the defaults. */
    ChildTable children;

    DataNode(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime) {
        this.name = name;
        this.nameHash = (int) nameHash64;
        this.data = data;
        this.acl = acl;
        this.czxid = czxid;
        this.ctime = ctime;
    }

    /** A copy of other, sharing its arrays and child table, for a node changing its class. */
    DataNode(DataNode other) {
        this.name = other.name;
        this.nameHash = other.nameHash;
        this.data = other.data;
        this.acl = other.acl;
        this.czxid = other.czxid;
        this.ctime = other.ctime;
        this.children = other.children;
    }

    /** The hash of {@link #data} that the tree's digest uses. */
    long dataHash() {
        return TreeDigest.dataHash(data);
    }

    /** A node just created, of this owner (see {@link NodeOwner}). */
    static DataNode create(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime,
                           long owner) {
        return owner == NodeOwner.PERSISTENT ? new PristineNode(name, nameHash64, data, acl, czxid, ctime)
                : new PristineNode.Owned(name, nameHash64, data, acl, czxid, ctime, owner);
    }

    /** A node with every field given (from a snapshot), in the smallest class that can hold it. */
    static DataNode of(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime, long mzxid,
                       long mtime, int version, int aversion, long owner) {
        DataNode node = create(name, nameHash64, data, acl, czxid, ctime, owner);
        if (mzxid == czxid && mtime == ctime && version == 0 && aversion == 0) {
            return node;
        }
        ModifiedNode modified = node.toModified();
        modified.mzxid = mzxid;
        modified.mtime = mtime;
        modified.version = version;
        modified.aversion = aversion;
        return modified;
    }

    /** This node as a {@link ModifiedNode}: itself if it is one, else a copy to put in its place. */
    abstract ModifiedNode toModified();

    public byte[] data() {
        return data;
    }

    public List<Acl> acl() {
        return acl;
    }

    /** The raw owner (see {@link NodeOwner}); 0 for persistent nodes. */
    public abstract long owner();

    public abstract int version();

    public abstract int aversion();

    public int cversionCounter() {
        return children == null ? 0 : children.cversionCounter;
    }

    public long czxid() {
        return czxid;
    }

    public abstract long mzxid();

    public abstract long mtime();

    public long ctime() {
        return ctime;
    }

    public long pzxid() {
        return children == null ? czxid : children.pzxid;
    }

    public int numChildren() {
        return children == null ? 0 : children.size();
    }

    /** The node's name (last path segment); "" for the root. */
    public String name() {
        return NodeNames.decode(name);
    }

    /** Child names, a fresh list in no particular order; call under the tree's read lock. */
    public List<String> children() {
        return children == null ? new ArrayList<>(0) : children.names();
    }

    /** The table, made on first use, that holds children, pzxid and the cversion counter. */
    ChildTable childTable() {
        if (children == null) {
            children = new ChildTable(czxid);
        }
        return children;
    }

    public Stat stat() {
        int numChildren = numChildren();
        return new Stat(czxid, mzxid(), ctime, mtime(), version(), 2 * cversionCounter() - numChildren, aversion(),
                NodeOwner.reported(owner()), data == null ? 0 : data.length, numChildren, pzxid());
    }
}
