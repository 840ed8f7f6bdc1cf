package dev.warden.state.pipeline;

import dev.warden.protocol.Acl;
import java.util.List;

/**
 * A node as it will be once every prepared-but-unapplied transaction is applied. Prep checks
 * requests against this view so that, say, two creates of one path in flight do not both pass.
 * {@code zxid} is the transaction that produced the record (-1 for a copy read from the tree).
 */
public record PendingNode(String path, long zxid, boolean exists, List<Acl> acl, int version, int aversion,
                          int cversionCounter, int numChildren, long owner) {
    static PendingNode absent(String path, long zxid) {
        return new PendingNode(path, zxid, false, null, 0, 0, 0, 0, 0);
    }

    PendingNode withZxid(long newZxid) {
        return new PendingNode(path, newZxid, exists, acl, version, aversion, cversionCounter, numChildren, owner);
    }

    PendingNode withVersion(int newVersion) {
        return new PendingNode(path, zxid, exists, acl, newVersion, aversion, cversionCounter, numChildren, owner);
    }

    PendingNode withAcl(List<Acl> newAcl, int newAversion) {
        return new PendingNode(path, zxid, exists, newAcl, version, newAversion, cversionCounter, numChildren, owner);
    }

    PendingNode withChildren(int newCounter, int newNumChildren) {
        return new PendingNode(path, zxid, exists, acl, version, aversion, newCounter, newNumChildren, owner);
    }
}
