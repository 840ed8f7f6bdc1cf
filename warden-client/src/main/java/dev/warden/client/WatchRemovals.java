package dev.warden.client;

import dev.warden.protocol.CheckWatchesRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Record;
import dev.warden.protocol.RemoveWatchesRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Removes a client's watches, on the server and in its watch tables, and tells each removed watcher. */
final class WatchRemovals {
    private final WardenClient client;
    private final Paths paths;
    private final WatchTables watches;

    WatchRemovals(WardenClient client, Paths paths, WatchTables watches) {
        this.client = client;
        this.paths = paths;
        this.watches = watches;
    }

    /** Drops one persistent watcher a {@link WatchHandle} was closed for. */
    CompletableFuture<Void> dropPersistent(WatchTables.Table table, String path, Watcher watcher, WatchMode mode) {
        if (!watches.removeOne(table, path, watcher)) {
            return CompletableFuture.completedFuture(null);
        }
        WatchKind kind = mode == WatchMode.PERSISTENT ? WatchKind.PERSISTENT : WatchKind.PERSISTENT_RECURSIVE;
        return client.call(OpCode.REMOVE_WATCHES, new RemoveWatchesRequest(paths.toServer(path), kind.wireType()), path,
                false, (err, in) -> {
                    // The server may have lost it already (e.g. a reconnect raced the close); fine.
                    if (err != ErrorCode.NO_WATCHER.code()) {
                        Replies.check(err, path);
                    }
                    return null;
                });
    }

    /** See {@link WardenClient#removeAllWatches}. */
    CompletableFuture<Void> removeAll(String path, WatchKind kind, boolean local) {
        Paths.validate(path);
        if (!watches.has(path, null, kind)) {
            return CompletableFuture.failedFuture(WardenException.of(ErrorCode.NO_WATCHER.code(), path));
        }
        if (local) {
            return deliverRemoved(CompletableFuture.completedFuture(watches.removeAll(path, kind)));
        }
        return deliverRemoved(client.call(OpCode.REMOVE_WATCHES,
                new RemoveWatchesRequest(paths.toServer(path), kind.wireType()),
                path, false, Replies.ok(path, in -> watches.removeAll(path, kind))));
    }

    /** See {@link WardenClient#removeWatcher}. */
    CompletableFuture<Void> removeOne(String path, Watcher watcher, WatchKind kind, boolean local) {
        Paths.validate(path);
        if (watcher == null) {
            throw new IllegalArgumentException("watcher must not be null; use removeAllWatches");
        }
        if (!watches.has(path, watcher, kind)) {
            return CompletableFuture.failedFuture(WardenException.of(ErrorCode.NO_WATCHER.code(), path));
        }
        if (local) {
            return deliverRemoved(CompletableFuture.completedFuture(watches.removeWatcher(path, watcher, kind)));
        }
        int opCode = watches.othersRemain(path, watcher, kind) ? OpCode.CHECK_WATCHES : OpCode.REMOVE_WATCHES;
        Record request = opCode == OpCode.CHECK_WATCHES
                ? new CheckWatchesRequest(paths.toServer(path), kind.wireType())
                : new RemoveWatchesRequest(paths.toServer(path), kind.wireType());
        return deliverRemoved(client.call(opCode, request, path, false,
                Replies.ok(path, in -> watches.removeWatcher(path, watcher, kind))));
    }

    /** Calls each removed watcher with its event, on the completion executor and in order. */
    private static CompletableFuture<Void> deliverRemoved(CompletableFuture<List<WatchTables.Delivery>> removed) {
        return removed.thenApply(deliveries -> {
            for (WatchTables.Delivery delivery : deliveries) {
                delivery.watcher().process(delivery.event());
            }
            return null;
        });
    }
}
