package dev.warden.recipes.group;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.client.WatchHandle;
import dev.warden.client.WatchMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The members of a group, listed once or followed. A follower's listener is called with the
 * whole member list (in join order) each time it differs from the last one delivered; a
 * member that joins and leaves between two listings may never be seen.
 *
 * <p>Connection: on SUSPENDED the list may be stale and nothing is delivered; on RECONNECTED
 * the group is listed again. On LOST or CLOSED following stops; {@link #members()} keeps the
 * last list.
 */
public final class GroupView implements AutoCloseable {
    private final WardenClient client;
    private final String groupPath;
    private final Consumer<List<MemberNode>> listener;
    /** Null until the first listing, which is delivered even when the group is empty. */
    private volatile List<MemberNode> members;
    private boolean listing;
    private boolean changedMeanwhile;
    private volatile boolean stopped;
    private volatile WatchHandle watch;

    private GroupView(WardenClient client, String groupPath, Consumer<List<MemberNode>> listener) {
        this.client = client;
        this.groupPath = groupPath;
        this.listener = listener;
    }

    /** The group's members now, in join order (an absent group has none). */
    public static CompletableFuture<List<MemberNode>> list(WardenClient client, String groupPath) {
        return client.getChildren(groupPath).exceptionallyCompose(failure ->
                        Failures.is(failure, WardenException.NoNodeException.class)
                                ? CompletableFuture.completedFuture(List.of())
                                : CompletableFuture.failedFuture(Failures.cause(failure)))
                .thenCompose(names -> {
                    List<CompletableFuture<Optional<MemberNode>>> reads = new ArrayList<>();
                    for (String name : names) {
                        reads.add(readMember(client, groupPath, name));
                    }
                    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(ignored ->
                            reads.stream().map(CompletableFuture::join).flatMap(Optional::stream)
                                    .sorted(Comparator.comparingLong(MemberNode::joinZxid)).toList());
                });
    }

    private static CompletableFuture<Optional<MemberNode>> readMember(WardenClient client, String groupPath, String name) {
        return client.getData(EnsurePath.child(groupPath, name))
                .thenApply(read -> Optional.of(new MemberNode(name, read.data(), read.stat().ephemeralOwner(), read.stat().czxid())))
                .exceptionallyCompose(failure -> Failures.is(failure, WardenException.NoNodeException.class)
                        ? CompletableFuture.completedFuture(Optional.empty()) // left while we listed
                        : CompletableFuture.failedFuture(Failures.cause(failure)));
    }

    /** Follows the group; completes once the listener has been given the current members. */
    public static CompletableFuture<GroupView> follow(WardenClient client, String groupPath, Consumer<List<MemberNode>> listener) {
        GroupView view = new GroupView(client, groupPath, listener);
        client.addStateListener(view::onState);
        // recursive: one watch reports joins, leaves and data changes of members
        return EnsurePath.exists(client, groupPath)
                .thenCompose(ignored -> client.addWatch(groupPath, WatchMode.PERSISTENT_RECURSIVE, view::onEvent))
                .thenCompose(handle -> {
                    view.watch = handle;
                    return view.relist();
                })
                .thenApply(ignored -> view);
    }

    /** Blocking form of {@link #follow}. */
    public static GroupView follow(WardenClient client, String groupPath, Consumer<List<MemberNode>> listener, Duration timeout) {
        return client.blocking(timeout).await(follow(client, groupPath, listener));
    }

    /** The last member list delivered. */
    public List<MemberNode> members() {
        List<MemberNode> latest = members;
        return latest == null ? List.of() : latest;
    }

    private void onEvent(WatchEvent event) {
        if (!event.path().equals(groupPath)) {
            relist();
        }
    }

    private void onState(ConnectionState state) {
        if (state == ConnectionState.RECONNECTED) {
            relist();
        } else if (state.isTerminal()) {
            stopped = true;
        }
    }

    private CompletableFuture<Void> relist() {
        synchronized (this) {
            if (stopped) {
                return CompletableFuture.completedFuture(null);
            }
            if (listing) {
                changedMeanwhile = true;
                return CompletableFuture.completedFuture(null);
            }
            listing = true;
            changedMeanwhile = false;
        }
        return list(client, groupPath).handle((latest, failure) -> {
            if (failure == null && !stopped && !latest.equals(members)) {
                members = latest;
                listener.accept(latest);
            }
            boolean again;
            synchronized (this) {
                listing = false;
                again = changedMeanwhile;
            }
            return again && failure == null ? relist() : CompletableFuture.<Void>completedFuture(null);
        }).thenCompose(next -> next);
    }

    /** Stops following; the client stays open. */
    @Override
    public void close() {
        stopped = true;
        WatchHandle handle = watch;
        if (handle != null) {
            handle.closeAsync();
        }
    }
}
