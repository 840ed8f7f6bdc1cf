package dev.warden.recipes.testing;

import dev.warden.client.WardenClient;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds one client's completion thread at a known point in its reply stream. A client runs its
 * reply callbacks one at a time in wire order, so a gate placed right after a recipe's request
 * runs once that request's predecessors have been handled, and keeps every later reply waiting
 * until it is opened. Placing gates between a recipe's steps lets a test act (cancel, close) at
 * an exact moment of the recipe's progress.
 */
public final class CallbackGate {
    private static final long WAIT_SECONDS = 10;

    private final CountDownLatch running = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);

    private CallbackGate() {
    }

    /** Sends a read on {@code client} whose reply callback waits until {@link #open()}. */
    public static CallbackGate place(WardenClient client) {
        CallbackGate gate = new CallbackGate();
        client.exists("/").whenComplete((stat, error) -> {
            gate.running.countDown();
            try {
                gate.open.await(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return gate;
    }

    /** Waits until the client's completion thread has reached the gate (so every earlier reply was handled). */
    public CallbackGate awaitReached() throws InterruptedException {
        if (!running.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("the client's completion thread did not reach the gate");
        }
        return this;
    }

    /** Lets the completion thread go on. */
    public void open() {
        open.countDown();
    }
}
