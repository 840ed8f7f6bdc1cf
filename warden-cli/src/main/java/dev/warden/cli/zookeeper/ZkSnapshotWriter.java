package dev.warden.cli.zookeeper;

import dev.warden.protocol.Acl;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CheckedOutputStream;

/**
 * Writes a Warden state as a ZooKeeper snapshot file, in the layout {@link ZkSnapshot} reads
 * (ZooKeeper 3.9's, with the digest and last-processed-zxid trailers that older versions skip),
 * through a temporary file that is fsynced and renamed, so a crash never leaves half a snapshot
 * under its final name.
 */
final class ZkSnapshotWriter {
    private ZkSnapshotWriter() {
    }

    /** Writes {@code snapshot.<zxid in hex>} into {@code dir}; returns it. */
    static Path write(Path dir, StateMachine state) throws IOException {
        DataTree tree = state.tree();
        long zxid = tree.lastAppliedZxid();
        Path target = dir.resolve("snapshot." + Long.toHexString(zxid));
        Path temp = dir.resolve(target.getFileName() + ".tmp");
        Adler32 adler = new Adler32();
        try (OutputStream file = Files.newOutputStream(temp);
             DataOutputStream out = new DataOutputStream(new CheckedOutputStream(
                     new BufferedOutputStream(file, 64 * 1024), adler))) {
            out.writeInt(ZkSnapshot.MAGIC);
            out.writeInt(ZkSnapshot.VERSION);
            out.writeLong(-1); // dbid
            List<SessionTracker.Session> sessions = state.sessions().sessions();
            out.writeInt(sessions.size());
            for (SessionTracker.Session session : sessions) {
                out.writeLong(session.id());
                out.writeInt(session.timeoutMs());
            }
            Map<List<Acl>, Long> aclKeys = aclTable(tree);
            out.writeInt(aclKeys.size());
            for (Map.Entry<List<Acl>, Long> entry : aclKeys.entrySet()) {
                out.writeLong(entry.getValue());
                out.writeInt(entry.getKey().size());
                for (Acl acl : entry.getKey()) {
                    out.writeInt(acl.perms());
                    writeString(out, acl.id().scheme());
                    writeString(out, acl.id().id());
                }
            }
            long digest = writeNodes(tree, aclKeys, out);
            writeString(out, "/");
            seal(out, adler);
            out.writeLong(zxid);
            out.writeInt(ZkDigest.VERSION);
            out.writeLong(digest);
            seal(out, adler);
            out.writeLong(zxid);
            seal(out, adler);
        }
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        }
        return target;
    }

    private static Map<List<Acl>, Long> aclTable(DataTree tree) {
        Map<List<Acl>, Long> keys = new HashMap<>();
        tree.forEachNodeInOrder((path, node) -> keys.computeIfAbsent(node.acl(), acl -> (long) keys.size() + 1));
        return keys;
    }

    /** Nodes in pre-order (the root's path is ""); returns ZooKeeper's digest of them. */
    private static long writeNodes(DataTree tree, Map<List<Acl>, Long> aclKeys, DataOutputStream out) {
        long[] digest = {0};
        ZkNode scratch = new ZkNode();
        tree.forEachNodeInOrder((path, node) -> {
            scratch.data = node.data();
            scratch.czxid = node.czxid();
            scratch.mzxid = node.mzxid();
            scratch.ctime = node.ctime();
            scratch.mtime = node.mtime();
            scratch.version = node.version();
            scratch.cversion = node.cversionCounter();
            scratch.aversion = node.aversion();
            scratch.ephemeralOwner = node.owner();
            scratch.pzxid = node.pzxid();
            digest[0] += ZkDigest.of(path, scratch);
            try {
                writeString(out, path.equals("/") ? "" : path);
                if (scratch.data == null) {
                    out.writeInt(-1);
                } else {
                    out.writeInt(scratch.data.length);
                    out.write(scratch.data);
                }
                out.writeLong(aclKeys.get(node.acl()));
                out.writeLong(scratch.czxid);
                out.writeLong(scratch.mzxid);
                out.writeLong(scratch.ctime);
                out.writeLong(scratch.mtime);
                out.writeInt(scratch.version);
                out.writeInt(scratch.cversion);
                out.writeInt(scratch.aversion);
                out.writeLong(scratch.ephemeralOwner);
                out.writeLong(scratch.pzxid);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return digest[0];
    }

    private static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** The Adler32 of everything written so far, then "/", as ZooKeeper seals a snapshot. */
    private static void seal(DataOutputStream out, Adler32 adler) throws IOException {
        out.flush();
        out.writeLong(adler.getValue());
        writeString(out, "/");
    }
}
