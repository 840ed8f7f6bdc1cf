package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import java.util.List;

/** Where the tree reports changes that fire watches; called under the tree's write lock. */
@FunctionalInterface
public interface TreeEvents {
    TreeEvents NONE = (path, eventType, zxid, acl) -> { };

    /** acl is the ACL a watcher needs READ on to be told (node's, or parent's for child events). */
    void fire(String path, int eventType, long zxid, List<Acl> acl);
}
