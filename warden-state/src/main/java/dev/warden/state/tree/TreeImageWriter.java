package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the tree part of a snapshot (the format of {@link TreeSnapshot}) from nodes given one
 * at a time, for trees that come from elsewhere (a ZooKeeper data directory being imported).
 * Nodes must come in pre-order, the root first, each followed by exactly the number of children
 * it declares; the reader checks the shape, so a mistake is caught when the snapshot is loaded.
 */
public final class TreeImageWriter {
    private final DataOutputStream out;
    private final NodeHeader header = new NodeHeader();
    private final Map<List<Acl>, Integer> aclIndexes = new HashMap<>();

    public TreeImageWriter(DataOutputStream out) throws IOException {
        this.out = out;
        out.writeInt(TreeSnapshot.MAGIC);
    }

    /**
     * One node. {@code name} is its last path segment ("" for the root); {@code cversionCounter}
     * counts the creates of its children (ZooKeeper's persisted cversion); {@code owner} is the
     * raw owner ({@link NodeOwner}, ZooKeeper's ephemeralOwner).
     */
    public void node(String name, byte[] data, List<Acl> acl, long czxid, long ctime, long mzxid, long mtime,
                     long pzxid, int version, int cversionCounter, int aversion, long owner, int childCount)
            throws IOException {
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        Integer known = aclIndexes.get(acl);
        int aclIndex = known != null ? known : aclIndexes.size();
        out.write(header.encode(nameBytes.length, data == null ? -1 : data.length, aclIndex, czxid, ctime, mzxid,
                mtime, pzxid, version, cversionCounter, aversion, owner, childCount), 0, NodeHeader.BYTES);
        out.write(nameBytes);
        if (data != null) {
            out.write(data);
        }
        if (known == null) {
            aclIndexes.put(List.copyOf(acl), aclIndex);
            out.writeInt(acl.size());
            for (Acl entry : acl) {
                out.writeInt(entry.perms());
                out.writeUTF(entry.id().scheme());
                out.writeUTF(entry.id().id());
            }
        }
    }
}
