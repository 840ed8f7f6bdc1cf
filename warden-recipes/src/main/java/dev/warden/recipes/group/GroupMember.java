package dev.warden.recipes.group;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * This process's membership in a group: an ephemeral child of the group node carrying the
 * member's data, named after the member, or with a sequence suffix when several processes may
 * share a name. The node lives as long as the session: a crashed member leaves the group
 * once its session expires.
 *
 * <p>Connection: while SUSPENDED the member is still in the group as far as others can tell
 * (until the session timeout). On LOST the node is gone with the session; without a session
 * source the member stays out and {@link MembershipListener#lost()} is called. With a session
 * source ({@link Builder#rejoinWith}) it takes a new session from it and joins again; if the
 * old node has not yet been removed (the client may notice the loss before the ensemble
 * expires the session) it waits for that node to go first, so a fixed name is never held twice.
 * Sessions from the source belong to this member and are closed with it.
 */
public final class GroupMember implements AutoCloseable {
    private final String groupPath;
    private final String name;
    private final byte[] data;
    private final boolean sequential;
    private final Supplier<CompletableFuture<WardenClient>> sessionSource;
    private final MembershipListener listener;
    /** The session now in use; switched by a rejoin and read by close() under this object's monitor. */
    private volatile WardenClient client;
    private volatile boolean ownsClient;
    private volatile String memberPath;
    private volatile boolean closed;

    private GroupMember(Builder builder) {
        this.groupPath = builder.groupPath;
        this.name = builder.name;
        this.data = builder.data;
        this.sequential = builder.sequential;
        this.sessionSource = builder.sessionSource;
        this.listener = builder.listener;
    }

    public static Builder builder(String groupPath, String name) {
        return new Builder(groupPath, name);
    }

    /** The member node's path on the current session. */
    public String memberPath() {
        return memberPath;
    }

    /** The client whose session holds the member node now. */
    public WardenClient client() {
        return client;
    }

    private CompletableFuture<GroupMember> joinOn(WardenClient session, boolean waitForStaleNode) {
        this.client = session;
        session.addStateListener(state -> onState(session, state));
        String path = EnsurePath.child(groupPath, name);
        CompletableFuture<String> created = EnsurePath.exists(session, groupPath).thenCompose(ignored -> sequential
                ? session.createProtected(path, data, Perms.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL)
                        .thenApply(result -> result.path())
                : createFixedName(session, path, waitForStaleNode));
        return created.thenApply(createdPath -> {
            memberPath = createdPath;
            return this;
        });
    }

    private CompletableFuture<String> createFixedName(WardenClient session, String path, boolean waitForStaleNode) {
        return session.create(path, data, CreateMode.EPHEMERAL).exceptionallyCompose(failure -> {
            Throwable cause = Failures.cause(failure);
            if (!(cause instanceof WardenException.NodeExistsException
                    || cause instanceof WardenException.ConnectionLossException)) {
                return CompletableFuture.failedFuture(cause);
            }
            // the create may have happened before the connection dropped, or an old node holds the name
            return session.exists(path).thenCompose(stat -> {
                if (stat.isEmpty()) {
                    return createFixedName(session, path, waitForStaleNode);
                }
                if (stat.get().ephemeralOwner() == session.sessionId()) {
                    return CompletableFuture.completedFuture(path);
                }
                if (!waitForStaleNode) {
                    return CompletableFuture.failedFuture(cause);
                }
                CompletableFuture<Void> gone = new CompletableFuture<>();
                return session.exists(path, event -> gone.complete(null))
                        .thenCompose(again -> again.isEmpty() ? CompletableFuture.completedFuture(null) : gone)
                        .thenCompose(ignored -> createFixedName(session, path, true));
            });
        });
    }

    private void onState(WardenClient session, ConnectionState state) {
        if (state != ConnectionState.LOST || closed || session != client) {
            return;
        }
        listener.lost();
        if (sessionSource == null) {
            return;
        }
        sessionSource.get().thenCompose(fresh -> {
            boolean closeOld;
            synchronized (this) {
                // Checked and switched under the lock close() takes: a close() between the two
                // would close the old session only, and the member would join again on the
                // fresh one with nobody left to close it.
                if (closed) {
                    fresh.closeAsync();
                    return CompletableFuture.failedFuture(new WardenException.ClientClosedException());
                }
                closeOld = ownsClient;
                ownsClient = true;
                client = fresh;
                memberPath = null;
            }
            if (closeOld) {
                session.closeAsync();
            }
            return joinOn(fresh, true);
        }).whenComplete((member, failure) -> {
            if (failure == null && closed) {
                // Closed while joining: close() closed the fresh session, and the node with it.
                listener.rejoinFailed(new WardenException.ClientClosedException());
            } else if (failure == null) {
                listener.rejoined(memberPath);
            } else {
                listener.rejoinFailed(Failures.cause(failure));
            }
        });
    }

    /** Leaves the group: deletes the member node, and closes sessions taken from the source. */
    @Override
    public void close() {
        WardenClient current;
        String path;
        boolean owns;
        synchronized (this) {
            closed = true;
            current = client;
            path = memberPath;
            owns = ownsClient;
        }
        if (current == null) {
            return;
        }
        CompletableFuture<Void> deleted = path == null ? CompletableFuture.completedFuture(null)
                : current.delete(path).exceptionally(failure -> null);
        if (owns) {
            deleted.whenComplete((ignored, failure) -> current.closeAsync());
        }
    }

    /** Describes a membership, then joins. */
    public static final class Builder {
        private final String groupPath;
        private final String name;
        private byte[] data = new byte[0];
        private boolean sequential;
        private Supplier<CompletableFuture<WardenClient>> sessionSource;
        private MembershipListener listener = new MembershipListener() { };

        private Builder(String groupPath, String name) {
            this.groupPath = Objects.requireNonNull(groupPath, "groupPath");
            if (name == null || name.isEmpty() || name.contains("/")) {
                throw new IllegalArgumentException("bad member name: '" + name + "'");
            }
            this.name = name;
        }

        public Builder data(byte[] value) {
            data = value.clone();
            return this;
        }

        /** Appends a sequence suffix, so processes sharing a name do not collide. */
        public Builder sequential(boolean value) {
            sequential = value;
            return this;
        }

        /** Joins again after a session loss, on a session from {@code source}. */
        public Builder rejoinWith(Supplier<CompletableFuture<WardenClient>> source) {
            sessionSource = Objects.requireNonNull(source, "source");
            return this;
        }

        public Builder listener(MembershipListener value) {
            listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /**
         * Joins on {@code client}'s session. Fails with {@code NodeExistsException} if a fixed
         * name is held by another session.
         */
        public CompletableFuture<GroupMember> join(WardenClient client) {
            return new GroupMember(this).joinOn(client, false);
        }

        public GroupMember join(WardenClient client, Duration timeout) {
            return client.blocking(timeout).await(join(client));
        }
    }
}
