package dev.warden.recipes.cache;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.client.WatchHandle;
import dev.warden.client.WatchMode;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipeCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local copy of a subtree (the root and its descendants down to {@code maxDepth}) kept in step
 * with the server through one persistent recursive watch, as Curator's {@code CuratorCache}.
 *
 * <p><b>How it stays right.</b> The watch is added before anything is read. Every event makes
 * the cache read that node again; a deletion removes it. Replies and events arrive in the
 * server's order, and an event always arrives before the reply of a later read that saw its
 * change, so applying each read as it arrives leaves every node at its newest state: a read
 * cannot resurrect a node whose deletion it did not see, because the deletion's event would
 * arrive after it. Values written faster than they are read may be skipped (the newest is
 * read), as with any watch.
 *
 * <p><b>Connection.</b> SUSPENDED: the view may be stale (listeners hear SUSPENDED). ZooKeeper
 * does not report what a recursive watch missed while the client was away, so on RECONNECTED
 * the cache reloads the whole subtree, delivers the differences (nodes created, changed and
 * deleted meanwhile) and then RESYNCED. LOST or CLOSED: STOPPED, the view stays as it was.
 */
public final class TreeCache implements AutoCloseable {
    private final WardenClient client;
    private final String root;
    private final int maxDepth;
    private final WatchMode watchMode;
    private final List<CacheListener> listeners = new CopyOnWriteArrayList<>();
    private final NavigableMap<String, CachedNode> nodes = new TreeMap<>();
    /** The load generation that last confirmed each path, so a reload can drop what it no longer saw. */
    private final Map<String, Long> touchedIn = new TreeMap<>();
    private final CompletableFuture<Void> initialized = new CompletableFuture<>();
    private long generation;
    private boolean stopped;
    private WatchHandle watch;

    /** A cache of {@code root} and all its descendants. */
    public TreeCache(WardenClient client, String root) {
        this(client, root, Integer.MAX_VALUE);
    }

    /**
     * A cache of {@code root} and its descendants down to {@code maxDepth} levels (0: the root
     * alone, then a persistent watch on it suffices).
     */
    public TreeCache(WardenClient client, String root, int maxDepth) {
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, not " + maxDepth);
        }
        if (root == null || !root.startsWith("/") || (root.length() > 1 && root.endsWith("/"))) {
            throw new IllegalArgumentException("cache root must be an absolute path, got: " + root);
        }
        this.client = client;
        this.root = root;
        this.maxDepth = maxDepth;
        this.watchMode = maxDepth == 0 ? WatchMode.PERSISTENT : WatchMode.PERSISTENT_RECURSIVE;
        client.addStateListener(this::onState);
    }

    public void addListener(CacheListener listener) {
        listeners.add(listener);
    }

    /** Adds the watch and loads the subtree; completes (after INITIALIZED) once the view is complete. */
    public CompletableFuture<Void> start() {
        synchronized (this) {
            if (watch != null || stopped) {
                throw new IllegalStateException("a cache is started once");
            }
        }
        client.addWatch(root, watchMode, this::onWatchEvent).whenComplete((handle, failure) -> {
            if (failure != null) {
                initialized.completeExceptionally(Failures.cause(failure));
                return;
            }
            synchronized (this) {
                watch = handle;
            }
            reload().whenComplete((ok, loadFailure) -> {
                if (loadFailure != null) {
                    initialized.completeExceptionally(Failures.cause(loadFailure));
                } else {
                    publish(CacheEvent.of(CacheEvent.Type.INITIALIZED));
                    initialized.complete(null);
                }
            });
        });
        return initialized;
    }

    /** Blocking {@link #start()}. */
    public TreeCache start(Duration timeout) {
        RecipeCalls.await(start(), timeout);
        return this;
    }

    /** The node at {@code path} as last read, if the view has it. */
    public synchronized Optional<CachedNode> get(String path) {
        return Optional.ofNullable(nodes.get(path));
    }

    /** The names of the children of {@code path} in the view, sorted. */
    public synchronized List<String> children(String path) {
        String prefix = path.equals("/") ? "/" : path + "/";
        List<String> names = new ArrayList<>();
        for (String candidate : nodes.tailMap(prefix, false).keySet()) {
            if (!candidate.startsWith(prefix)) {
                break;
            }
            String rest = candidate.substring(prefix.length());
            if (!rest.isEmpty() && rest.indexOf('/') < 0) {
                names.add(rest);
            }
        }
        return names;
    }

    /** Every node in the view, by path. */
    public synchronized Map<String, CachedNode> snapshot() {
        return new TreeMap<>(nodes);
    }

    private int depthOf(String path) {
        if (path.equals(root)) {
            return 0;
        }
        String below = root.equals("/") ? path.substring(1) : path.substring(root.length() + 1);
        return (int) below.chars().filter(c -> c == '/').count() + 1;
    }

    private boolean inScope(String path) {
        boolean under = path.equals(root) || (root.equals("/") ? path.startsWith("/")
                : path.startsWith(root + "/"));
        return under && depthOf(path) <= maxDepth;
    }

    private void onWatchEvent(WatchEvent event) {
        if (!inScope(event.path())) {
            return;
        }
        switch (event.kind()) {
            case NODE_CREATED, NODE_DATA_CHANGED -> {
                long in;
                synchronized (this) {
                    in = generation;
                }
                refresh(event.path(), in, false);
            }
            case NODE_DELETED -> remove(event.path());
            default -> { }
        }
    }

    /**
     * Reads one node again and applies what the read found. For an event, a lost connection or
     * an ended session is left to the reload after RECONNECTED (or to STOPPED); a reload fails
     * instead, so that it never takes a node it could not read for a deleted one.
     */
    private CompletableFuture<Void> refresh(String path, long loadGeneration, boolean partOfReload) {
        return client.getData(path).handle((read, failure) -> {
            if (failure == null) {
                put(new CachedNode(path, read.data(), read.stat()), loadGeneration);
            } else if (Failures.is(failure, WardenException.NoNodeException.class)) {
                remove(path);
            } else if (partOfReload || (!RecipeCalls.isConnectionLoss(failure) && !isEnded(failure))) {
                throw new java.util.concurrent.CompletionException(Failures.cause(failure));
            }
            return null;
        });
    }

    private static boolean isEnded(Throwable failure) {
        return Failures.is(failure, WardenException.SessionExpiredException.class)
                || Failures.is(failure, WardenException.ClientClosedException.class);
    }

    /**
     * Loads the whole subtree as a new generation; then drops what it neither saw nor heard of
     * meanwhile (nodes deleted while the watch could not report it).
     */
    private CompletableFuture<Void> reload() {
        long loading;
        synchronized (this) {
            loading = ++generation;
        }
        return load(root, loading).thenRun(() -> {
            List<CachedNode> gone = new ArrayList<>();
            synchronized (this) {
                for (Map.Entry<String, Long> entry : new ArrayList<>(touchedIn.entrySet())) {
                    if (entry.getValue() < loading) {
                        gone.add(nodes.remove(entry.getKey()));
                        touchedIn.remove(entry.getKey());
                    }
                }
            }
            gone.sort((a, b) -> b.path().compareTo(a.path()));   // children before parents
            for (CachedNode node : gone) {
                publish(new CacheEvent(CacheEvent.Type.REMOVED, null, node));
            }
        });
    }

    private CompletableFuture<Void> load(String path, long loading) {
        CompletableFuture<Void> self = refresh(path, loading, true);
        if (depthOf(path) >= maxDepth) {
            return self;
        }
        CompletableFuture<Void> children = client.getChildren(path).handle((names, failure) -> {
            if (failure != null) {
                if (Failures.is(failure, WardenException.NoNodeException.class)) {
                    return CompletableFuture.<Void>completedFuture(null);
                }
                return CompletableFuture.<Void>failedFuture(Failures.cause(failure));
            }
            List<CompletableFuture<Void>> loads = new ArrayList<>();
            for (String name : names) {
                loads.add(load(path.equals("/") ? "/" + name : path + "/" + name, loading));
            }
            return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new));
        }).thenCompose(next -> next);
        return CompletableFuture.allOf(self, children);
    }

    private void put(CachedNode node, long loadGeneration) {
        CachedNode previous;
        synchronized (this) {
            if (stopped) {
                return;
            }
            previous = nodes.put(node.path(), node);
            touchedIn.merge(node.path(), loadGeneration, Math::max);
        }
        if (previous == null) {
            publish(new CacheEvent(CacheEvent.Type.ADDED, node, null));
        } else if (!node.sameAs(previous)) {
            publish(new CacheEvent(CacheEvent.Type.UPDATED, node, previous));
        }
    }

    private void remove(String path) {
        CachedNode previous;
        synchronized (this) {
            if (stopped) {
                return;
            }
            previous = nodes.remove(path);
            touchedIn.remove(path);
        }
        if (previous != null) {
            publish(new CacheEvent(CacheEvent.Type.REMOVED, null, previous));
        }
    }

    private void onState(ConnectionState state) {
        synchronized (this) {
            if (stopped || watch == null) {
                return;
            }
        }
        switch (state) {
            case SUSPENDED -> publish(CacheEvent.of(CacheEvent.Type.SUSPENDED));
            case RECONNECTED -> reload().whenComplete((ok, failure) -> {
                if (failure == null) {
                    publish(CacheEvent.of(CacheEvent.Type.RESYNCED));
                }
            });
            case LOST, CLOSED, AUTH_FAILED -> {
                synchronized (this) {
                    stopped = true;
                }
                publish(CacheEvent.of(CacheEvent.Type.STOPPED));
            }
            default -> { }
        }
    }

    private void publish(CacheEvent event) {
        for (CacheListener listener : listeners) {
            listener.cacheChanged(event);
        }
    }

    /** Removes the watch and stops following; the view stays readable as it was. */
    @Override
    public void close() {
        WatchHandle handle;
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
            handle = watch;
        }
        if (handle != null) {
            handle.closeAsync();
        }
    }
}
