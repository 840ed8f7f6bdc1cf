package dev.warden.recipes.support;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Path checks and directory creation shared by the recipes. */
public final class RecipePaths {
    private static final byte[] NO_DATA = new byte[0];

    private RecipePaths() {
    }

    /** Rejects anything that is not an absolute, non-root path without a trailing slash. */
    public static String checkDirectory(String path) {
        if (path == null || !path.startsWith("/") || path.length() < 2 || path.endsWith("/") || path.contains("//")) {
            throw new IllegalArgumentException("recipe directory must be an absolute path below /, got: " + path);
        }
        return path;
    }

    public static String child(String dir, String name) {
        return dir + "/" + name;
    }

    /** Creates the directory and its missing ancestors as persistent nodes; existing ones are fine. */
    public static CompletableFuture<Void> ensureDirectory(WardenClient client, String dir) {
        return client.exists(dir).thenCompose(stat -> stat.isPresent()
                ? CompletableFuture.<Void>completedFuture(null)
                : createChain(client, dir, 1));
    }

    private static CompletableFuture<Void> createChain(WardenClient client, String dir, int fromIndex) {
        int slash = dir.indexOf('/', fromIndex);
        String prefix = slash < 0 ? dir : dir.substring(0, slash);
        CompletableFuture<Void> created = client.create(prefix, NO_DATA, CreateMode.PERSISTENT)
                .handle((path, error) -> {
                    Throwable cause = RecipeCalls.unwrap(error);
                    // Another participant may create the same ancestor at the same moment.
                    if (cause == null || cause instanceof WardenException.NodeExistsException) {
                        return null;
                    }
                    throw new CompletionException(cause);
                });
        return slash < 0 ? created : created.thenCompose(ignored -> createChain(client, dir, slash + 1));
    }
}
