package dev.warden.client;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateMode;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One {@link WardenClient#createProtected} call: create under a name carrying a fresh uuid and,
 * when the reply is lost with the connection, find out from the parent's children whether the
 * create happened before trying again.
 */
final class ProtectedCreate {
    static final String PREFIX = "_p_";

    private final WardenClient client;
    private final RetryPolicy retryPolicy;
    private final String parent;
    private final String marker;
    private final String protectedPath;
    private final byte[] data;
    private final List<Acl> acl;
    private final CreateMode mode;
    private final long startNanos = System.nanoTime();

    ProtectedCreate(WardenClient client, RetryPolicy retryPolicy, String path, byte[] data, List<Acl> acl, CreateMode mode) {
        if (mode.isSequential()) {
            Paths.validateSequential(path);
        } else {
            Paths.validate(path);
        }
        if (path.equals("/")) {
            throw new IllegalArgumentException("cannot create /");
        }
        this.client = client;
        this.retryPolicy = retryPolicy;
        this.parent = Paths.parent(path);
        this.marker = PREFIX + UUID.randomUUID() + "-";
        String name = path.substring(path.lastIndexOf('/') + 1);
        this.protectedPath = childPath(marker + name);
        this.data = data;
        this.acl = acl;
        this.mode = mode;
    }

    private String childPath(String child) {
        return parent.equals("/") ? "/" + child : parent + "/" + child;
    }

    CompletableFuture<CreateResult> start() {
        return attempt(0);
    }

    private CompletableFuture<CreateResult> attempt(int retries) {
        return client.createNode(protectedPath, data, acl, mode, -1, true)
                .handle((created, error) -> {
                    if (error == null) {
                        return CompletableFuture.completedFuture(created);
                    }
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
                    if (!(cause instanceof WardenException.ConnectionLossException)
                            || cause instanceof WardenException.ClientClosedException
                            || !retryPolicy.allowRetry(retries, elapsedMs)) {
                        return CompletableFuture.<CreateResult>failedFuture(cause);
                    }
                    return findOrRetry(retries);
                })
                .thenCompose(future -> future);
    }

    /** Runs once reconnected (the getChildren waits in the queue until then). */
    private CompletableFuture<CreateResult> findOrRetry(int retries) {
        return client.getChildren(parent).thenCompose(children -> {
            for (String child : children) {
                if (child.startsWith(marker)) {
                    String found = childPath(child);
                    return client.exists(found).thenApply(stat -> new CreateResult(found, stat.orElse(null)));
                }
            }
            return attempt(retries + 1);
        });
    }
}
