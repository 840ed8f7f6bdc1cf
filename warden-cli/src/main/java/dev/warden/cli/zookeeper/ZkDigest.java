package dev.warden.cli.zookeeper;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * ZooKeeper's tree digest (digest version 2): each node hashes to the CRC32 of its path
 * ("" for the root), its data and its persisted Stat fields (czxid, mzxid, pzxid, ctime, mtime,
 * version, cversion, aversion, ephemeralOwner, big-endian), nodes under /zookeeper/ hash to 0,
 * and the tree's digest is the sum of its nodes' hashes, so a change updates it in O(1).
 */
final class ZkDigest {
    /** The only digest version this converter computes; snapshots and logs say which one they carry. */
    static final int VERSION = 2;
    private static final String SYSTEM_SUBTREE = "/zookeeper/";

    private ZkDigest() {
    }

    static long of(String path, ZkNode node) {
        if (path.startsWith(SYSTEM_SUBTREE)) {
            return 0;
        }
        ByteBuffer stat = ByteBuffer.allocate(60);
        stat.putLong(node.czxid).putLong(node.mzxid).putLong(node.pzxid).putLong(node.ctime).putLong(node.mtime)
                .putInt(node.version).putInt(node.cversion).putInt(node.aversion).putLong(node.ephemeralOwner);
        CRC32 crc = new CRC32();
        crc.update((path.equals("/") ? "" : path).getBytes(StandardCharsets.UTF_8));
        if (node.data != null) {
            crc.update(node.data);
        }
        crc.update(stat.array());
        return crc.getValue();
    }
}
