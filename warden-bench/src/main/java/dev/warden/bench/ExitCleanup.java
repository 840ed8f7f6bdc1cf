package dev.warden.bench;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a benchmark command must undo even when a signal stops it (SIGTERM from {@code kill} or
 * {@code timeout}, SIGINT from Ctrl-C): the servers and probe JVMs it started, which would go on
 * running with their ports, CPU and heap, and the temporary directory their data fills, which can
 * grow to tens of GiB in a comparison. On such an exit the JVM skips {@code finally} blocks but runs
 * shutdown hooks, so the commands register that work here.
 *
 * <p>One hook runs every registered action, newest first: processes started after a directory
 * are stopped before the directory is deleted. A command that finishes normally does the work
 * itself and closes its registration.
 */
public final class ExitCleanup {
    /** A piece of cleanup; failures are reported and the next action still runs. */
    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    /** Closing it withdraws the action (the caller did the work itself, or it is no longer needed). */
    public static final class Registration implements AutoCloseable {
        private final String what;
        private final Action action;

        private Registration(String what, Action action) {
            this.what = what;
            this.action = action;
        }

        @Override
        public void close() {
            synchronized (LOCK) {
                PENDING.remove(this);
            }
        }
    }

    /** How long a process stopped at exit gets to end on SIGTERM before it is killed. */
    static final long PROCESS_GRACE_MS = 5_000;

    private static final Object LOCK = new Object();
    /** Newest first. */
    private static final Deque<Registration> PENDING = new ArrayDeque<>();
    private static boolean hookInstalled;
    private static boolean exiting;

    private ExitCleanup() {
    }

    /**
     * Registers {@code action} to run if the JVM exits before the registration is closed. If the JVM
     * is already exiting, the action runs at once, on the caller's thread.
     */
    public static Registration register(String what, Action action) {
        Registration registration = new Registration(what, action);
        synchronized (LOCK) {
            if (!exiting) {
                if (!hookInstalled) {
                    Runtime.getRuntime().addShutdownHook(new Thread(ExitCleanup::runPending, "bench-exit-cleanup"));
                    hookInstalled = true;
                }
                PENDING.addFirst(registration);
                return registration;
            }
        }
        runQuietly(registration);
        return registration;
    }

    /**
     * Stops {@code process} if the JVM exits while it still runs: SIGTERM, then SIGKILL after
     * {@link #PROCESS_GRACE_MS}. The registration withdraws itself when the process ends.
     */
    public static Registration stopOnExit(String what, Process process) {
        Registration registration = register(what, () -> stopProcess(process, PROCESS_GRACE_MS));
        process.onExit().thenRun(registration::close);
        return registration;
    }

    /** Deletes {@code dir} if the JVM exits before the registration is closed. */
    public static Registration deleteOnExit(Path dir) {
        return register("work directory " + dir, () -> WorkDirectories.deleteTree(dir));
    }

    /** The hook's body: every pending action, newest first. Package-private for tests. */
    static void runPending() {
        List<Registration> actions;
        synchronized (LOCK) {
            exiting = true;
            actions = new ArrayList<>(PENDING);
            PENDING.clear();
        }
        actions.forEach(ExitCleanup::runQuietly);
    }

    /** Registrations not yet closed; for tests. */
    static int pendingCount() {
        synchronized (LOCK) {
            return PENDING.size();
        }
    }

    /** Lets a test start over after {@link #runPending()}; never called in production. */
    static void resetForTests() {
        synchronized (LOCK) {
            exiting = false;
            PENDING.clear();
        }
    }

    private static void runQuietly(Registration registration) {
        try {
            registration.action.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("warden bench: interrupted while cleaning up " + registration.what);
        } catch (Exception | Error e) {
            System.err.println("warden bench: cannot clean up " + registration.what + ": " + e);
        }
    }

    /**
     * Stops {@code process}: SIGTERM lets a server flush and close; SIGKILL only if it has not
     * ended within {@code graceMs}.
     */
    public static void stopProcess(Process process, long graceMs) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
