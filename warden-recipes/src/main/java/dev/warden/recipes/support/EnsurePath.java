package dev.warden.recipes.support;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import java.util.concurrent.CompletableFuture;

/** Creates a persistent node and any missing ancestors, tolerating racing creators. */
public final class EnsurePath {
    private static final byte[] EMPTY = new byte[0];
    private static final int CREATE_ATTEMPTS = 5;

    private EnsurePath() {
    }

    /** Completes once {@code path} exists (created empty and persistent where missing). */
    public static CompletableFuture<Void> exists(WardenClient client, String path) {
        return exists(client, path, 1);
    }

    private static CompletableFuture<Void> exists(WardenClient client, String path, int attempt) {
        if (path.equals("/")) {
            return CompletableFuture.completedFuture(null);
        }
        // Try the node itself first: in the common case the parents exist and one round trip suffices.
        return client.create(path, EMPTY, CreateMode.PERSISTENT).handle((created, failure) -> {
            if (failure == null || Failures.cause(failure) instanceof WardenException.NodeExistsException) {
                return CompletableFuture.<Void>completedFuture(null);
            }
            if (Failures.cause(failure) instanceof WardenException.NoNodeException) {
                return exists(client, parentOf(path)).thenCompose(ignored -> exists(client, path));
            }
            // The client does not resend a create whose reply was lost (a leader change drops every
            // member's connections); sending it again is safe, as "already exists" counts as done.
            if (RecipeCalls.isConnectionLoss(failure) && attempt < CREATE_ATTEMPTS) {
                return exists(client, path, attempt + 1);
            }
            return CompletableFuture.<Void>failedFuture(Failures.cause(failure));
        }).thenCompose(f -> f);
    }

    /** The parent of an absolute path ("/" for a top-level node). */
    public static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not an absolute path: " + path);
        }
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    /** Joins a parent path and a child name. */
    public static String child(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }
}
