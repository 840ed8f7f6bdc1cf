package dev.warden.cli.zookeeper;

import dev.warden.protocol.Acl;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A znode as ZooKeeper stores it: data, ACL, the persisted Stat (whose {@code cversion} counts
 * child creates; clients see {@code 2 * cversion - numChildren}) and the names of its children.
 */
final class ZkNode {
    byte[] data;
    List<Acl> acl;
    long czxid;
    long mzxid;
    long ctime;
    long mtime;
    int version;
    int cversion;
    int aversion;
    long ephemeralOwner;
    long pzxid;
    final Set<String> children = new HashSet<>();
    /** ZooKeeper's digest of this node as it is now (0 for nodes under /zookeeper/). */
    long digest;
}
