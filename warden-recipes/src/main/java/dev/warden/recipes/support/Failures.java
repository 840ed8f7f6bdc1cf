package dev.warden.recipes.support;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Unwraps the wrappers that future chains put around the failure that matters. */
public final class Failures {
    private Failures() {
    }

    public static Throwable cause(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** True if the (possibly wrapped) failure is of the given type. */
    public static boolean is(Throwable failure, Class<? extends Throwable> type) {
        return failure != null && type.isInstance(cause(failure));
    }
}
