package dev.warden.server.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Stat;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One znode. Mutated only by the applier thread while it holds the tree's write lock; read by
 * other threads under the read lock, so fields need no other synchronization. Data arrays are
 * never modified after they are stored, so a reader may hand one out without copying.
 */
public final class DataNode {
    byte[] data;
    List<Acl> acl;
    final long czxid;
    final long ctime;
    long mzxid;
    long mtime;
    long pzxid;
    int version;
    /** Incremented on each child creation only; Stat reports 2 × this − numChildren. */
    int cversionCounter;
    int aversion;
    final long owner;
    private Set<String> children;

    DataNode(byte[] data, List<Acl> acl, long zxid, long timeMs, long owner) {
        this(data, acl, zxid, timeMs, zxid, timeMs, zxid, 0, 0, 0, owner);
    }

    DataNode(byte[] data, List<Acl> acl, long czxid, long ctime, long mzxid, long mtime, long pzxid,
             int version, int cversionCounter, int aversion, long owner) {
        this.data = data;
        this.acl = acl;
        this.czxid = czxid;
        this.ctime = ctime;
        this.mzxid = mzxid;
        this.mtime = mtime;
        this.pzxid = pzxid;
        this.version = version;
        this.cversionCounter = cversionCounter;
        this.aversion = aversion;
        this.owner = owner;
    }

    public byte[] data() {
        return data;
    }

    public List<Acl> acl() {
        return acl;
    }

    public long owner() {
        return owner;
    }

    public int version() {
        return version;
    }

    public int aversion() {
        return aversion;
    }

    public int cversionCounter() {
        return cversionCounter;
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
        return pzxid;
    }

    public int numChildren() {
        return children == null ? 0 : children.size();
    }

    /** Child names; the live set, to be read under the tree's read lock only. */
    public Set<String> children() {
        return children == null ? Collections.emptySet() : children;
    }

    void addChild(String name) {
        if (children == null) {
            children = new HashSet<>(4);
        }
        children.add(name);
    }

    void removeChild(String name) {
        if (children != null) {
            children.remove(name);
            if (children.isEmpty()) {
                children = null;
            }
        }
    }

    public Stat stat() {
        int numChildren = numChildren();
        return new Stat(czxid, mzxid, ctime, mtime, version, 2 * cversionCounter - numChildren, aversion,
                NodeOwner.reported(owner), data == null ? 0 : data.length, numChildren, pzxid);
    }
}
