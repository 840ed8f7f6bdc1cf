package dev.warden.recipes.barrier;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.recipes.support.EnsurePath;
import dev.warden.recipes.support.Failures;
import dev.warden.recipes.support.PendingWaits;
import dev.warden.recipes.support.RecipeCalls;
import dev.warden.recipes.support.TimedWait;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A double barrier: members start together once {@code memberCount} have entered and finish
 * together once all have left. Each member is an ephemeral child named after it; the member
 * whose entry brings the count to the threshold creates the {@value #READY} child, which every
 * waiting member watches, so entering wakes each member once. Leaving follows the paper: the
 * lowest-named member waits for the highest to go, every other member deletes its node and
 * waits for the lowest, so each leaver watches one node, not the whole group.
 *
 * <p>One path serves one round: {@value #READY} stays after the round (a later member would
 * enter at once), so use a fresh path per round.
 *
 * <p>Crashes: a member whose session ends loses its node. Before the threshold is reached that
 * lowers the count, and the others keep waiting until enough members (any names) enter or their
 * {@link #enter(Duration)} times out. After the threshold, a crashed member counts as having
 * left, so the others are never stuck in {@link #leave()}.
 *
 * <p>Connection: SUSPENDED waits continue; on LOST (the member's node is gone with its session)
 * or CLOSED pending waits fail with {@code SessionExpiredException} / {@code ClientClosedException}.
 */
public final class DoubleBarrier implements AutoCloseable {
    public static final String READY = "ready";
    private static final int CREATE_ATTEMPTS = 5;

    private final WardenClient client;
    private final String path;
    private final String memberName;
    private final String memberPath;
    private final int memberCount;
    private final PendingWaits waits;
    /**
     * Set by {@link #leave()} and {@link #close()}. Their look at (or delete of) our node may be
     * sent before a create still in progress in {@link #enter()}; such a create, landing
     * afterwards, removes its node itself rather than leave a member nobody will remove.
     */
    private volatile boolean abandoned;

    public DoubleBarrier(WardenClient client, String path, String memberName, int memberCount) {
        if (memberCount < 1) {
            throw new IllegalArgumentException("memberCount must be at least 1, got " + memberCount);
        }
        if (memberName.isEmpty() || memberName.contains("/") || memberName.equals(READY)) {
            throw new IllegalArgumentException("bad member name: '" + memberName + "'");
        }
        this.client = client;
        this.path = path;
        this.memberName = memberName;
        this.memberPath = EnsurePath.child(path, memberName);
        this.memberCount = memberCount;
        this.waits = new PendingWaits(client);
    }

    /** Joins and completes once {@code memberCount} members have joined. */
    public CompletableFuture<Void> enter() {
        CompletableFuture<Void> entered = waits.track(new CompletableFuture<>());
        EnsurePath.exists(client, path)
                .thenCompose(ignored -> createOwnNode(1))
                .whenComplete((ignored, failure) -> {
                    if (failure != null) {
                        entered.completeExceptionally(Failures.cause(failure));
                    } else if (abandoned) {
                        deleteOwn().whenComplete((deleted, deleteFailure) -> entered.completeExceptionally(
                                new IllegalStateException("left or closed while entering " + path)));
                    } else {
                        checkEntered(entered);
                    }
                });
        return entered;
    }

    /** Blocking form: true once entered, false on timeout (still joined: call {@link #leave()}). */
    public boolean enter(Duration timeout) {
        return TimedWait.awaitOrFalse(client, enter(), timeout);
    }

    /** Leaves and completes once every member has left. */
    public CompletableFuture<Void> leave() {
        abandoned = true;
        CompletableFuture<Void> left = waits.track(new CompletableFuture<>());
        checkLeft(left);
        return left;
    }

    /** Blocking form: true once all have left, false on timeout. */
    public boolean leave(Duration timeout) {
        return TimedWait.awaitOrFalse(client, leave(), timeout);
    }

    /**
     * Creates this member's node. A create whose reply was lost is sent again: if the first one
     * was applied, "exists" with our session as owner means it is ours.
     */
    private CompletableFuture<String> createOwnNode(int attempt) {
        return client.create(memberPath, new byte[0], CreateMode.EPHEMERAL)
                .exceptionallyCompose(failure -> {
                    if (Failures.is(failure, WardenException.NodeExistsException.class)) {
                        return checkOwnNode();
                    }
                    if (RecipeCalls.isConnectionLoss(failure) && attempt < CREATE_ATTEMPTS) {
                        return createOwnNode(attempt + 1);
                    }
                    return CompletableFuture.failedFuture(Failures.cause(failure));
                });
    }

    private CompletableFuture<String> checkOwnNode() {
        return client.exists(memberPath).thenApply(stat -> {
            if (stat.isPresent() && stat.get().ephemeralOwner() == client.sessionId()) {
                return memberPath;
            }
            throw new IllegalStateException("member name '" + memberName + "' is taken in " + path);
        });
    }

    private void checkEntered(CompletableFuture<Void> entered) {
        if (entered.isDone()) {
            return;
        }
        // Watch "ready" before counting: whoever completes the count creates it after our count.
        String ready = EnsurePath.child(path, READY);
        client.exists(ready, event -> checkEntered(entered)).thenCompose(stat -> {
            if (stat.isPresent()) {
                entered.complete(null);
                return CompletableFuture.completedFuture(null);
            }
            return client.getChildren(path).thenCompose(children -> {
                long members = children.stream().filter(name -> !name.equals(READY)).count();
                if (members < memberCount) {
                    return CompletableFuture.completedFuture(null);
                }
                return EnsurePath.exists(client, ready).thenRun(() -> entered.complete(null));
            });
        }).whenComplete((ignored, failure) -> {
            if (failure != null) {
                entered.completeExceptionally(Failures.cause(failure));
            }
        });
    }

    private void checkLeft(CompletableFuture<Void> left) {
        if (left.isDone()) {
            return;
        }
        client.getChildren(path).thenCompose(children -> {
            List<String> members = children.stream().filter(name -> !name.equals(READY)).sorted().toList();
            if (members.isEmpty()) {
                left.complete(null);
                return CompletableFuture.completedFuture(null);
            }
            if (members.equals(List.of(memberName))) {
                return deleteOwn().thenRun(() -> left.complete(null));
            }
            boolean lowest = members.get(0).equals(memberName);
            if (lowest) {
                return waitForGone(members.get(members.size() - 1), left);
            }
            return deleteOwn().thenCompose(ignored -> waitForGone(members.get(0), left));
        }).whenComplete((ignored, failure) -> {
            if (failure != null) {
                left.completeExceptionally(Failures.cause(failure));
            }
        });
    }

    private CompletableFuture<Void> waitForGone(String member, CompletableFuture<Void> left) {
        return client.exists(EnsurePath.child(path, member), event -> checkLeft(left))
                .thenAccept((Optional<?> stat) -> {
                    if (stat.isEmpty()) {
                        checkLeft(left); // gone already: look again at once
                    }
                });
    }

    private CompletableFuture<Void> deleteOwn() {
        return RecipeCalls.deleteIfExists(client, memberPath);
    }

    /** Removes this member's node if still there (a member giving up). */
    @Override
    public void close() {
        abandoned = true;
        deleteOwn();
    }
}
