package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.server.config.DynamicConfigWriter;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.threads.ServerThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries a member's configuration changes out of the consensus core on a thread of its own, in
 * the order they happened: the peer links that follow the configurations known (see
 * {@link MemberConfigurations}), and for each committed configuration the member's log line, its
 * files ({@link DynamicConfigWriter}: the dynamic file and zoo.cfg, each forced, renamed and its
 * directory forced, when the member was started from a zoo.cfg) and the listener (the JMX beans).
 * None of it is consensus, and on the driver thread it held every write: the files' four fsyncs
 * took 20–300 ms beside a busy log, and the rest, code that runs once per change and so runs
 * cold, 1–30 ms on every member at once, while the writes right after a change need every old
 * member until a joiner is synchronized. The files are a committed fact recorded for a restart:
 * a member that crashes before they are written comes back with the older configuration plus the
 * change in its log, which it counts with until it learns it committed, so nothing waits for
 * them. A write that fails is logged and the member goes on; the next committed change writes
 * the files whole again.
 */
final class ConfigurationPublisher implements AutoCloseable {
    /** The member's logger: these lines are the member's. */
    private static final Logger log = LoggerFactory.getLogger(Member.class);
    /** How long closing waits for what is already queued, so a restart finds the newest files. */
    static final long CLOSE_WAIT_MS = 10_000;

    private final long myId;
    /** The member's zoo.cfg; null for a member started without one (nothing to rewrite). */
    private final Path zooCfg;
    private final ExecutorService thread;
    /** Told after each change is published; set before the member starts. */
    private volatile Runnable listener = () -> { };

    /** @param starting the configuration the member starts with, parsed once on the new thread to load the parser's classes there */
    ConfigurationPublisher(long myId, Path zooCfg, EnsembleConfig starting) {
        this.myId = myId;
        this.zooCfg = zooCfg;
        this.thread = ServerThreads.single("warden-" + myId + "-configurations");
        // Start the thread now: made by the first change, on the driver thread, the thread alone
        // held every write for 5-27 ms on a loaded machine.
        thread.execute(() -> EnsembleConfig.parse(starting.memberText(), starting.version(), "the starting configuration"));
    }

    /** {@code listener} runs after each committed configuration is published, on this publisher's thread. */
    void onPublished(Runnable listener) {
        this.listener = listener;
    }

    /**
     * Runs {@code work} on this publisher's thread, after what was queued before (the peer links
     * following the configurations known, which must keep the order of the changes).
     */
    void execute(Runnable work) {
        try {
            thread.execute(() -> {
                try {
                    work.run();
                } catch (RejectedExecutionException stopping) {
                    // the peer transport closed first: the member is stopping
                }
            });
        } catch (RejectedExecutionException closed) {
            // the member is stopping; what it would link to no longer matters
        }
    }

    /** Queues {@code committed}'s publication; returns at once. */
    void publish(Configuration committed) {
        execute(() -> {
            EnsembleConfig parsed = EnsembleConfig.fromConfiguration(committed);
            log.info("member {}: configuration 0x{} committed: {}", myId, Long.toHexString(parsed.version()),
                    parsed.memberText().strip().replace('\n', ' '));
            if (zooCfg != null) {
                writeFiles(parsed);
            }
            listener.run();
        });
    }

    private void writeFiles(EnsembleConfig committed) {
        try {
            DynamicConfigWriter.write(zooCfg, myId, committed);
        } catch (IOException | RuntimeException e) {
            log.error("member {}: cannot record configuration 0x{} beside {} ({}); a restart comes back with"
                    + " the configuration the files still hold and learns this one from the leader; check that"
                    + " the directory is writable and the disk not full", myId,
                    Long.toHexString(committed.version()), zooCfg, e.toString());
        }
    }

    /** Waits up to {@link #CLOSE_WAIT_MS} for what is queued, then stops the thread. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                log.warn("member {}: committed configurations still being published (files beside {}) after {} ms;"
                        + " not waiting longer", myId, zooCfg, CLOSE_WAIT_MS);
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
