package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import java.util.List;

/**
 * The terms of the tree's rolling digest: the digest is the sum (mod 2^64) over all nodes of
 * four terms, each a hash of the node's path and one group of its fields. A sum does not
 * depend on the order nodes were added, so replicas with equal content agree whatever their
 * history; a change subtracts the old term and adds the new one. Splitting a node into groups
 * lets a child create or delete (which touches pzxid and cversion only) re-hash a few longs
 * instead of the parent's data, and lets setAcl skip the data too.
 *
 * <p>Only fields every replica holds identically are hashed: path, data, czxid, ctime, owner
 * (ephemeral owner, container and TTL marks), mzxid, mtime, version, ACL, aversion, pzxid and
 * the cversion counter (the reported cversion follows from it and the child count).
 */
final class TreeDigest {
    static final long ROOT_PATH_HASH = 0x5EEDF00DCAFEL;
    private static final long IDENTITY = 1;
    private static final long CONTENT = 2;
    private static final long ACCESS = 3;
    private static final long CHILDREN = 4;
    private static final long NULL_DATA = 0x6E756C6CL;

    private TreeDigest() {
    }

    /** The path hash of a child, from its parent's path hash and its name's hash. */
    static long childPathHash(long parentPathHash, long nameHash64) {
        return Hash64.step(parentPathHash, nameHash64);
    }

    /** Hash of the path path[0, end) ("/" when end is 0 or 1); path must be valid. */
    static long pathHash(String path, int end) {
        long h = ROOT_PATH_HASH;
        int from = 1;
        while (from < end) {
            int slash = path.indexOf('/', from);
            int to = slash < 0 || slash > end ? end : slash;
            h = childPathHash(h, NodeNames.hash(path, from, to));
            from = to + 1;
        }
        return h;
    }

    static long pathHash(String path) {
        return pathHash(path, path.length());
    }

    /** The hash of a node's data as the content term uses it. */
    static long dataHash(byte[] data) {
        return data == null ? NULL_DATA : Hash64.of(data);
    }

    /** The sum of all of a node's terms. */
    static long of(long pathHash, DataNode node) {
        return identity(pathHash, node) + content(pathHash, node) + access(pathHash, node) + children(pathHash, node);
    }

    static long identity(long pathHash, DataNode node) {
        long h = Hash64.step(pathHash, IDENTITY);
        h = Hash64.step(h, node.czxid);
        h = Hash64.step(h, node.ctime);
        return Hash64.step(h, node.owner());
    }

    static long content(long pathHash, DataNode node) {
        long h = Hash64.step(pathHash, CONTENT);
        h = Hash64.step(h, node.dataHash());
        h = Hash64.step(h, node.mzxid());
        h = Hash64.step(h, node.mtime());
        return Hash64.step(h, node.version());
    }

    static long access(long pathHash, DataNode node) {
        long h = Hash64.step(pathHash, ACCESS);
        h = Hash64.step(h, aclHash(node.acl));
        return Hash64.step(h, node.aversion());
    }

    static long children(long pathHash, DataNode node) {
        long h = Hash64.step(pathHash, CHILDREN);
        h = Hash64.step(h, node.pzxid());
        return Hash64.step(h, node.cversionCounter());
    }

    private static long aclHash(List<Acl> acl) {
        long h = acl.size();
        for (Acl entry : acl) {
            h = Hash64.step(h, entry.perms());
            h = Hash64.step(h, Hash64.of(entry.id().scheme()));
            h = Hash64.step(h, Hash64.of(entry.id().id()));
        }
        return h;
    }
}
