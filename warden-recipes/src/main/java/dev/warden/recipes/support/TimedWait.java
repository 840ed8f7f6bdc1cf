package dev.warden.recipes.support;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Blocking forms for recipes whose waits are futures: running out of time gives false. */
public final class TimedWait {
    private TimedWait() {
    }

    /**
     * Waits for {@code wait}: true if it completed normally within {@code timeout}, false if time
     * ran out first (the wait is then cancelled). A failed wait throws its failure unwrapped.
     */
    public static boolean awaitOrFalse(WardenClient client, CompletableFuture<?> wait, Duration timeout) {
        try {
            client.blocking(timeout).await(wait);
            return true;
        } catch (WardenException.TimeoutException e) {
            if (wait.cancel(false)) {
                return false;
            }
            // it finished just as time ran out: report how
            client.blocking(timeout).await(wait);
            return true;
        }
    }
}
