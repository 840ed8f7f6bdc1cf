package dev.warden.state.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Paths of the nodes that have an owner: ephemerals by session, containers and TTL nodes. Only
 * these nodes keep a full path string. Guarded by the tree's lock, like the nodes.
 */
final class OwnerIndex {
    private final Map<Long, Set<String>> ephemeralsBySession = new HashMap<>();
    private final Set<String> containers = new HashSet<>();
    private final Set<String> ttlNodes = new HashSet<>();

    void add(String path, long owner) {
        if (NodeOwner.isContainer(owner)) {
            containers.add(path);
        } else if (NodeOwner.isTtl(owner)) {
            ttlNodes.add(path);
        } else if (owner != NodeOwner.PERSISTENT) {
            ephemeralsBySession.computeIfAbsent(owner, k -> new HashSet<>()).add(path);
        }
    }

    void remove(String path, long owner) {
        if (NodeOwner.isContainer(owner)) {
            containers.remove(path);
        } else if (NodeOwner.isTtl(owner)) {
            ttlNodes.remove(path);
        } else if (owner != NodeOwner.PERSISTENT) {
            // An emptied set stays until its session closes, as in ZooKeeper: the order in which
            // a close deletes ephemerals is this set's iteration order (see closeOrder).
            Set<String> paths = ephemeralsBySession.get(owner);
            if (paths != null) {
                paths.remove(path);
            }
        }
    }

    void clear() {
        ephemeralsBySession.clear();
        containers.clear();
        ttlNodes.clear();
    }

    List<String> ephemerals(long sessionId) {
        Set<String> paths = ephemeralsBySession.get(sessionId);
        return paths == null ? List.of() : new ArrayList<>(paths);
    }

    Map<Long, List<String>> ephemeralsBySession() {
        Map<Long, List<String>> copy = new HashMap<>();
        ephemeralsBySession.forEach((session, paths) -> copy.put(session, new ArrayList<>(paths)));
        return copy;
    }

    int ephemeralCount() {
        int count = 0;
        for (Set<String> paths : ephemeralsBySession.values()) {
            count += paths.size();
        }
        return count;
    }

    List<String> containerAndTtlPaths() {
        List<String> paths = new ArrayList<>(containers.size() + ttlNodes.size());
        paths.addAll(containers);
        paths.addAll(ttlNodes);
        return paths;
    }

    /**
     * The iteration order of a clone of the session's set, which is the order Apache ZooKeeper
     * deletes a closed session's ephemerals in, so watch events arrive in the same order.
     */
    @SuppressWarnings("unchecked")
    List<String> closeOrder(long sessionId) {
        Set<String> paths = ephemeralsBySession.get(sessionId);
        return paths == null ? new ArrayList<>() : new ArrayList<>((Set<String>) ((HashSet<String>) paths).clone());
    }

    /** Forgets the session; returns the paths still listed for it, sorted (replicas must agree). */
    List<String> removeSession(long sessionId) {
        Set<String> left = ephemeralsBySession.remove(sessionId);
        if (left == null || left.isEmpty()) {
            return List.of();
        }
        List<String> ordered = new ArrayList<>(left);
        Collections.sort(ordered);
        return ordered;
    }
}
