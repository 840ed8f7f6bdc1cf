package dev.warden.cli;

import java.util.concurrent.CountDownLatch;

/** How a long-running command learns that it is time to stop. */
public interface StopSignal {
    /**
     * Arranges for {@code stop} to run when the process is asked to stop. Called before the
     * command announces itself, so a stop request that follows the announcement is never lost.
     */
    void onStop(Runnable stop);

    /** Blocks until the stop action has run (an implementation may end the process instead). */
    void await() throws InterruptedException;

    /**
     * SIGTERM or SIGINT (or any other JVM shutdown): runs the stop action in a shutdown hook, then
     * halts with status 0. The halt is what makes a requested stop a clean exit; without it the
     * JVM would report 143 or 130 for the signal. {@link #await()} parks until then.
     */
    static StopSignal jvmShutdown() {
        return new StopSignal() {
            @Override
            public void onStop(Runnable stop) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    stop.run();
                    Runtime.getRuntime().halt(0);
                }, "warden-shutdown"));
            }

            @Override
            public void await() throws InterruptedException {
                new CountDownLatch(1).await(); // never counted down: the shutdown hook ends the process
            }
        };
    }
}
