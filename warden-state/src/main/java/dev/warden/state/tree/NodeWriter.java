package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Writes node records of a tree snapshot (see {@link TreeSnapshot}); numbers ACL lists as it goes. */
final class NodeWriter {
    private final DataOutputStream out;
    private final NodeHeader header = new NodeHeader();
    /** Keyed by identity: the tree interns its ACL lists, so equal lists are the same object. */
    private final Map<List<Acl>, Integer> aclIndexes = new IdentityHashMap<>();

    NodeWriter(DataOutputStream out) {
        this.out = out;
    }

    void write(DataNode node, int childCount) throws IOException {
        Integer known = aclIndexes.get(node.acl);
        int aclIndex = known != null ? known : aclIndexes.size();
        out.write(header.encode(node, aclIndex, childCount), 0, NodeHeader.BYTES);
        out.write(node.name);
        if (node.data != null) {
            out.write(node.data);
        }
        if (known == null) {
            aclIndexes.put(node.acl, aclIndex);
            out.writeInt(node.acl.size());
            for (Acl entry : node.acl) {
                out.writeInt(entry.perms());
                out.writeUTF(entry.id().scheme());
                out.writeUTF(entry.id().id());
            }
        }
    }
}
