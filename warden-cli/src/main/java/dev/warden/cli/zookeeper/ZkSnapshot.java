package dev.warden.cli.zookeeper;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads one ZooKeeper snapshot file ({@code snapshot.<zxid in hex>}, as FileSnap writes it):
 *
 * <pre>
 * header   = int magic "ZKSN", int version (2), long dbid
 * sessions = int count, (long id, int timeoutMs) * count
 * acls     = int count, (long key, int n, (int perms, string scheme, string id) * n) * count
 * nodes    = (string path ("" for the root), buffer data, long aclKey, StatPersisted) *, string "/"
 * seal     = long adler32 of every byte before it, string "/"
 * then, from ZooKeeper 3.6, the tree's digest when the snapshot was finished:
 *            long zxid, int digestVersion, long digest, seal
 * and, from 3.9, the zxid processed when it was finished: long zxid, seal
 * </pre>
 *
 * StatPersisted is czxid, mzxid, ctime, mtime (longs), version, cversion, aversion (ints),
 * ephemeralOwner, pzxid (longs). ACL key -1 stands for world:anyone with every permission.
 * Snapshots ZooKeeper wrote gzip-compressed ({@code .gz}) are read too.
 */
final class ZkSnapshot {
    static final int MAGIC = 0x5A4B534E; // "ZKSN"
    static final int VERSION = 2;
    static final long OPEN_ACL_KEY = -1;
    /** Bytes of a seal: the checksum, then the string "/" (length 1, one byte). */
    static final int SEAL_BYTES = 8 + 4 + 1;
    private static final int DIGEST_TRAILER_BYTES = 8 + 4 + 8 + SEAL_BYTES;
    private static final int ZXID_TRAILER_BYTES = 8 + SEAL_BYTES;
    private static final int MAX_DATA_BYTES = 1 << 30;
    static final List<Acl> OPEN_ACL = List.of(new Acl(31, new Id("world", "anyone")));

    /** The tree's digest at {@code zxid}, when the snapshot was finished. */
    record Digest(long zxid, int version, long digest) {
    }

    final Path file;
    final long zxid;
    final ZkTree tree = new ZkTree();
    final Map<Long, Integer> sessions = new LinkedHashMap<>();
    Digest digest;
    /** The zxid ZooKeeper had processed when the snapshot was finished (3.9), or -1. */
    long finishedZxid = -1;

    private ZkSnapshot(Path file, long zxid) {
        this.file = file;
        this.zxid = zxid;
    }

    /** The zxid a snapshot or log file's name gives ({@code prefix.<hex>[.suffix]}), or -1. */
    static long zxidOfName(Path file, String prefix) {
        String name = file.getFileName().toString();
        if (!name.startsWith(prefix + ".")) {
            return -1;
        }
        String rest = name.substring(prefix.length() + 1);
        int dot = rest.indexOf('.');
        String hex = dot < 0 ? rest : rest.substring(0, dot);
        String suffix = dot < 0 ? "" : rest.substring(dot);
        if (!suffix.isEmpty() && !suffix.equals(".gz") && !suffix.equals(".snappy")) {
            return -1;
        }
        try {
            return Long.parseUnsignedLong(hex, 16);
        } catch (NumberFormatException notOurs) {
            return -1;
        }
    }

    /**
     * True if the file ends the way every finished snapshot ends (a seal's "/"): ZooKeeper writes
     * snapshots in place, so a crash while writing leaves a file that does not, and ZooKeeper then
     * starts from an older snapshot. A compressed file cannot be told this way (assumed finished).
     */
    static boolean looksFinished(Path file) throws IOException {
        if (!file.getFileName().toString().matches("snapshot\\.[0-9a-fA-F]+")) {
            return true;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < 16 + SEAL_BYTES) {
                return false;
            }
            java.nio.ByteBuffer tail = java.nio.ByteBuffer.allocate(5);
            channel.read(tail, size - 5);
            return tail.getInt(0) == 1 && tail.get(4) == '/';
        }
    }

    static ZkSnapshot read(Path file) throws IOException {
        long zxid = zxidOfName(file, "snapshot");
        if (file.getFileName().toString().endsWith(".snappy")) {
            throw new ZkFormatException(file, 0, "snappy-compressed snapshots are not read by this converter:"
                    + " start ZooKeeper once with zookeeper.snapshot.compression.method=none and let it write a"
                    + " snapshot, or import from a directory whose newest snapshot is uncompressed or .gz");
        }
        ZkSnapshot snapshot = new ZkSnapshot(file, zxid);
        InputStream raw = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) {
            raw = new GZIPInputStream(raw, 64 * 1024);
        }
        try (InputStream stream = new BufferedInputStream(raw, 64 * 1024)) {
            JuteInput in = new JuteInput(stream, file, 0);
            try {
                snapshot.readFrom(in);
            } catch (EOFException truncated) {
                throw in.error(in.position(), "the snapshot ends early (a snapshot ZooKeeper was still writing, or a"
                        + " truncated copy)");
            } catch (IllegalStateException malformed) {
                throw in.error(in.position(), malformed.getMessage());
            }
        }
        return snapshot;
    }

    private void readFrom(JuteInput in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw in.error(0, "not a ZooKeeper snapshot (magic 0x" + Integer.toHexString(magic) + ", expected ZKSN)");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw in.error(4, "snapshot format version " + version + "; ZooKeeper 3.x writes version " + VERSION);
        }
        in.readLong(); // dbid, always -1
        long at = in.position();
        int sessionCount = in.readInt();
        if (sessionCount < 0) {
            throw in.error(at, "the snapshot claims " + sessionCount + " sessions");
        }
        for (int i = 0; i < sessionCount; i++) {
            sessions.put(in.readLong(), in.readInt());
        }
        Map<Long, List<Acl>> acls = readAcls(in);
        readNodes(in, acls);
        seal(in);
        int remaining = in.peekRemaining(DIGEST_TRAILER_BYTES + ZXID_TRAILER_BYTES);
        if (remaining == DIGEST_TRAILER_BYTES || remaining == DIGEST_TRAILER_BYTES + ZXID_TRAILER_BYTES) {
            digest = new Digest(in.readLong(), in.readInt(), in.readLong());
            seal(in);
            remaining -= DIGEST_TRAILER_BYTES;
        }
        if (remaining == ZXID_TRAILER_BYTES) {
            finishedZxid = in.readLong();
            seal(in);
            remaining = 0;
        }
        if (remaining != 0) {
            throw in.error(in.position(), "unexpected bytes after the snapshot's tree (" + remaining
                    + (remaining > DIGEST_TRAILER_BYTES + ZXID_TRAILER_BYTES ? " or more" : "") + ")");
        }
    }

    private static Map<Long, List<Acl>> readAcls(JuteInput in) throws IOException {
        long at = in.position();
        int count = in.readInt();
        if (count < 0) {
            throw in.error(at, "the ACL table claims " + count + " entries");
        }
        Map<Long, List<Acl>> acls = new HashMap<>();
        for (int i = 0; i < count; i++) {
            long key = in.readLong();
            long listAt = in.position();
            int entries = in.readInt();
            if (entries < -1 || entries > 1 << 16) {
                throw in.error(listAt, "an ACL claims " + entries + " entries");
            }
            List<Acl> acl = new ArrayList<>(Math.max(entries, 0));
            for (int e = 0; e < entries; e++) {
                int perms = in.readInt();
                acl.add(new Acl(perms, new Id(in.readString(1 << 20, "an ACL scheme"),
                        in.readString(1 << 20, "an ACL id"))));
            }
            acls.put(key, List.copyOf(acl));
        }
        return acls;
    }

    private void readNodes(JuteInput in, Map<Long, List<Acl>> acls) throws IOException {
        while (true) {
            long at = in.position();
            String path = in.readString(1 << 20, "a path");
            if (path == null) {
                throw in.error(at, "a node has no path");
            }
            if (path.equals("/")) {
                break;
            }
            ZkNode node = new ZkNode();
            node.data = in.readBuffer(MAX_DATA_BYTES, "a node's data");
            long aclAt = in.position();
            long aclKey = in.readLong();
            node.acl = aclKey == OPEN_ACL_KEY ? OPEN_ACL : acls.get(aclKey);
            if (node.acl == null) {
                throw in.error(aclAt, path + " refers to ACL " + aclKey + ", which the snapshot's ACL table lacks");
            }
            node.czxid = in.readLong();
            node.mzxid = in.readLong();
            node.ctime = in.readLong();
            node.mtime = in.readLong();
            node.version = in.readInt();
            node.cversion = in.readInt();
            node.aversion = in.readInt();
            node.ephemeralOwner = in.readLong();
            node.pzxid = in.readLong();
            String key = path.isEmpty() ? "/" : path;
            if (!key.startsWith("/") || tree.node(key) != null) {
                throw in.error(at, "'" + path + "' is not a new path");
            }
            if (key.equals("/") != tree.nodes().isEmpty()) {
                throw in.error(at, key.equals("/") ? "the root comes twice" : "the first node is not the root");
            }
            tree.load(key, node);
        }
    }

    private static void seal(JuteInput in) throws IOException {
        long at = in.position();
        long expected = in.checksum();
        long stored = in.readLong();
        String slash = in.readString(1, "a seal");
        if (stored != expected) {
            throw in.error(at, "Adler32 checksum mismatch (stored 0x" + Long.toHexString(stored) + ", computed 0x"
                    + Long.toHexString(expected) + "): the snapshot is damaged");
        }
        if (!"/".equals(slash)) {
            throw in.error(at + 8, "a seal does not end with \"/\"");
        }
    }

    /** The tree a ZooKeeper server starts with: /, /zookeeper, /zookeeper/quota and /zookeeper/config. */
    static ZkTree initialTree() {
        ZkTree tree = new ZkTree();
        tree.load("/", systemNode(OPEN_ACL, 0));
        tree.load("/zookeeper", systemNode(OPEN_ACL, 0));
        tree.load("/zookeeper/quota", systemNode(OPEN_ACL, 0));
        tree.load("/zookeeper/config", systemNode(List.of(new Acl(1, new Id("world", "anyone"))), -1));
        return tree;
    }

    private static ZkNode systemNode(List<Acl> acl, int aversion) {
        ZkNode node = new ZkNode();
        node.data = new byte[0];
        node.acl = acl;
        node.aversion = aversion;
        return node;
    }
}
