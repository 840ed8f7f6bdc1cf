package dev.warden.server.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Stat;
import java.util.ArrayList;
import java.util.List;

/**
 * One znode. Mutated only by the applier thread while it holds the tree's write lock; read by
 * other threads under the read lock, so fields need no other synchronization. Data arrays are
 * never modified after they are stored, so a reader may hand one out without copying.
 *
 * <p>Kept small because there are millions: the node knows its own name (UTF-8) but not its
 * path; what only a parent needs (children, pzxid, the cversion counter) lives in a
 * {@link ChildTable} made on the first child; the owner lives in a subclass, since most nodes
 * are persistent. 12-byte header + 4 refs + 4 longs + 3 ints = 72 bytes with compressed oops.
 */
public sealed class DataNode permits OwnedDataNode {
    final byte[] name;
    /** Low half of {@link NodeNames#hash(byte[])}, so child tables never re-read the name to hash. */
    final int nameHash;
    byte[] data;
    List<Acl> acl;
    final long czxid;
    final long ctime;
    long mzxid;
    long mtime;
    int version;
    int aversion;
    /** Null while the node never had a child and its cversion counter and pzxid are the defaults. */
    ChildTable children;

    DataNode(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime) {
        this.name = name;
        this.nameHash = (int) nameHash64;
        this.data = data;
        this.acl = acl;
        this.czxid = czxid;
        this.ctime = ctime;
        this.mzxid = czxid;
        this.mtime = ctime;
    }

    /** A node of this owner (see {@link NodeOwner}): the plain class for persistent ones. */
    static DataNode create(byte[] name, long nameHash64, byte[] data, List<Acl> acl, long czxid, long ctime,
                           long owner) {
        return owner == NodeOwner.PERSISTENT ? new DataNode(name, nameHash64, data, acl, czxid, ctime)
                : new OwnedDataNode(name, nameHash64, data, acl, czxid, ctime, owner);
    }

    public byte[] data() {
        return data;
    }

    public List<Acl> acl() {
        return acl;
    }

    /** The raw owner (see {@link NodeOwner}); 0 for persistent nodes. */
    public long owner() {
        return NodeOwner.PERSISTENT;
    }

    public int version() {
        return version;
    }

    public int aversion() {
        return aversion;
    }

    public int cversionCounter() {
        return children == null ? 0 : children.cversionCounter;
    }

    public long czxid() {
        return czxid;
    }

    public long mzxid() {
        return mzxid;
    }

    public long mtime() {
        return mtime;
    }

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
        return new Stat(czxid, mzxid, ctime, mtime, version, 2 * cversionCounter() - numChildren, aversion,
                NodeOwner.reported(owner()), data == null ? 0 : data.length, numChildren, pzxid());
    }
}
