package dev.warden.recipes.node;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.RecipePaths;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * An ephemeral node that puts itself back: if anyone deletes it, it is created again; after a
 * reconnect it is checked and re-created if it went meanwhile; if the session is lost and a
 * session source was given, it is created again on a new session (as Curator's
 * {@code PersistentNode} with an ephemeral mode). Use it to advertise "I am here" (service
 * registrations, member nodes) for as long as the process lives.
 *
 * <p><b>Fixed names.</b> With a fixed name, a node held by another session (the previous
 * session of this process not yet expired, or someone else) is never taken over: the node waits
 * for it to go and then creates its own, so the name is never held twice.
 * <b>Sequential.</b> With {@code sequential}, each creation is a protected sequential create
 * (no duplicate after a lost reply) and gets a new path; {@link #path()} tells the current one.
 *
 * <p><b>Connection.</b> SUSPENDED: others still see the node until the session times out.
 * RECONNECTED: checked and re-created if gone. LOST: with a session source, a new session is
 * taken and the node created there; without one the listener hears {@code lost()}.
 */
public final class PersistentEphemeralNode implements AutoCloseable {
    private final String basePath;
    private final boolean sequential;
    private final Supplier<CompletableFuture<WardenClient>> sessionSource;
    private final NodeListener listener;
    private final CompletableFuture<String> firstCreated = new CompletableFuture<>();
    private volatile byte[] data;
    private volatile WardenClient client;
    private volatile boolean ownsClient;
    private volatile String path;
    private volatile boolean closed;
    /**
     * The czxid of the node last reported created. Two watch events can both find the node gone
     * and both ensure it; the second then finds the first's node (its own) and must not report
     * it, or watch it, again.
     */
    private volatile long reportedCzxid = -1;
    private static final long UNKNOWN_CZXID = Long.MIN_VALUE;

    /** A node this recipe's session holds: its path and the zxid that created it. */
    private record Held(String path, long czxid) {
    }

    /**
     * @param sessionSource where a new session comes from after LOST, or null to give up then
     */
    public PersistentEphemeralNode(WardenClient client, String path, byte[] data, boolean sequential,
                                   Supplier<CompletableFuture<WardenClient>> sessionSource, NodeListener listener) {
        this.client = client;
        this.basePath = RecipePaths.checkDirectory(path);
        this.data = data == null ? new byte[0] : data.clone();
        this.sequential = sequential;
        this.sessionSource = sessionSource;
        this.listener = listener == null ? new NodeListener() { } : listener;
    }

    /** Creates the node; completes with its path once it first exists. */
    public CompletableFuture<String> start() {
        attach(client);
        ensure(client);
        return firstCreated;
    }

    public String start(Duration timeout) {
        return RecipeCalls.await(start(), timeout);
    }

    /** The node's current path (null before it first exists). */
    public String path() {
        return path;
    }

    /** The client whose session holds the node now. */
    public WardenClient client() {
        return client;
    }

    /** Changes the node's data now and for every re-creation. */
    public CompletableFuture<Void> setData(byte[] newData) {
        this.data = newData.clone();
        String current = path;
        if (current == null) {
            return CompletableFuture.completedFuture(null);
        }
        return client.setData(current, newData).handle((stat, failure) -> {
            // Gone meanwhile: the re-creation carries the new data.
            if (failure != null && !Failures.is(failure, WardenException.NoNodeException.class)) {
                throw new java.util.concurrent.CompletionException(Failures.cause(failure));
            }
            return null;
        });
    }

    private void attach(WardenClient session) {
        session.addStateListener(state -> onState(session, state));
    }

    /** Creates the node on {@code session} if it is not there, then watches it. */
    private void ensure(WardenClient session) {
        if (closed || session != client) {
            return;
        }
        CompletableFuture<Held> created = EnsurePath.exists(session, EnsurePath.parentOf(basePath)).thenCompose(ignored ->
                sequential
                        ? session.createProtected(basePath, data, Perms.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL)
                                // A protected create that found its node after a lost reply may find it gone again (no stat).
                                .thenApply(result -> new Held(result.path(), result.stat() == null ? UNKNOWN_CZXID : result.stat().czxid()))
                        : createFixed(session));
        created.whenComplete((held, failure) -> {
            if (failure != null) {
                // A connection loss: the check after RECONNECTED creates it. A session end: LOST handles it.
                return;
            }
            if (held == null) {
                return;   // waiting for someone else's node to go
            }
            String createdPath = held.path();
            path = createdPath;
            synchronized (this) {
                if (held.czxid() == reportedCzxid && held.czxid() != UNKNOWN_CZXID) {
                    return;   // another ensure made this node and reported it
                }
                reportedCzxid = held.czxid();
            }
            if (closed) {
                RecipeCalls.deleteIfExists(session, createdPath);
                return;
            }
            watch(session, createdPath);
            listener.created(createdPath);
            firstCreated.complete(createdPath);
        });
    }

    /**
     * A fixed name: create it; if it exists and is this session's, keep it; if another
     * session's, wait for it to go (the watch calls {@link #ensure} again) and complete with null.
     */
    private CompletableFuture<Held> createFixed(WardenClient session) {
        return session.createWithStat(basePath, data, Perms.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL).handle((created, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(new Held(created.path(), created.stat().czxid()));
            }
            boolean exists = Failures.is(failure, WardenException.NodeExistsException.class);
            if (!exists && !RecipeCalls.isConnectionLoss(failure)) {
                return CompletableFuture.<Held>failedFuture(Failures.cause(failure));
            }
            // A lost reply may hide our own create: look at the owner.
            return session.exists(basePath, event -> onWatch(session, event)).thenApply(stat -> {
                if (stat.isPresent() && stat.get().ephemeralOwner() == session.sessionId()) {
                    return new Held(basePath, stat.get().czxid());
                }
                if (stat.isEmpty()) {
                    ensure(session);
                }
                return (Held) null;
            });
        }).thenCompose(next -> next);
    }

    private void watch(WardenClient session, String watched) {
        session.exists(watched, event -> onWatch(session, event)).whenComplete((stat, failure) -> {
            if (failure == null && stat.isEmpty()) {
                ensure(session);    // deleted between the create and the watch
            }
        });
    }

    private void onWatch(WardenClient session, WatchEvent event) {
        if (event.kind() == WatchEvent.Kind.NODE_DELETED) {
            if (event.path().equals(path)) {
                path = sequential ? null : path;
            }
            ensure(session);
        } else if (event.kind() == WatchEvent.Kind.NODE_DATA_CHANGED || event.kind() == WatchEvent.Kind.NODE_CREATED) {
            String watched = event.path();
            session.exists(watched, next -> onWatch(session, next)).whenComplete((stat, failure) -> {
                if (failure == null && stat.isEmpty()) {
                    ensure(session);
                }
            });
        }
    }

    private void onState(WardenClient session, ConnectionState state) {
        if (closed || session != client) {
            return;
        }
        if (state == ConnectionState.RECONNECTED) {
            String current = path;
            if (current == null) {
                ensure(session);
                return;
            }
            session.exists(current).whenComplete((stat, failure) -> {
                if (failure == null && (stat.isEmpty() || stat.get().ephemeralOwner() != session.sessionId())) {
                    ensure(session);
                }
            });
        } else if (state == ConnectionState.LOST) {
            if (sessionSource == null) {
                listener.lost();
                firstCreated.completeExceptionally(new WardenException.SessionExpiredException("session lost"));
                return;
            }
            sessionSource.get().whenComplete((fresh, failure) -> {
                if (failure != null || closed) {
                    if (fresh != null) {
                        fresh.close();
                    }
                    if (failure != null) {
                        listener.lost();
                    }
                    return;
                }
                if (ownsClient) {
                    session.closeAsync();
                }
                client = fresh;
                ownsClient = true;
                attach(fresh);
                ensure(fresh);
            });
        }
    }

    /** Deletes the node and stops re-creating it; a session taken from the source is closed. */
    @Override
    public void close() {
        closed = true;
        String current = path;
        WardenClient session = client;
        try {
            if (current != null) {
                RecipeCalls.await(RecipeCalls.deleteIfExists(session, current), Duration.ofSeconds(10));
            }
        } catch (RuntimeException unreachable) {
            // the session's end removes an ephemeral node anyway
        } finally {
            if (ownsClient) {
                session.close();
            }
        }
    }
}
