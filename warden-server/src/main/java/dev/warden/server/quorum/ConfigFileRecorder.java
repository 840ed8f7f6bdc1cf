package dev.warden.server.quorum;

import dev.warden.server.config.DynamicConfigWriter;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.threads.ServerThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each committed configuration to the member's files ({@link DynamicConfigWriter}: the
 * dynamic file and zoo.cfg, each forced, renamed and its directory forced) on a thread of its own,
 * in the order the changes committed. On the driver thread those four fsyncs took 20–300 ms
 * beside a busy log on every member, the leader included, and held every write meanwhile. The
 * files are a committed fact recorded for a restart: a member that crashes before they are
 * written comes back with the older configuration plus the change in its log, which it counts
 * with until it learns it committed, so nothing waits for them. A write that fails is logged and
 * the member goes on; the next committed change writes the files whole again.
 */
final class ConfigFileRecorder implements AutoCloseable {
    /** The member's logger: these lines are the member's. */
    private static final Logger log = LoggerFactory.getLogger(Member.class);
    /** How long closing waits for the writes already queued, so a restart finds the newest files. */
    static final long CLOSE_WAIT_MS = 10_000;

    private final long myId;
    private final Path zooCfg;
    private final ExecutorService writer;

    ConfigFileRecorder(long myId, Path zooCfg) {
        this.myId = myId;
        this.zooCfg = zooCfg;
        this.writer = ServerThreads.single("warden-" + myId + "-config-files");
        // Start the thread now: made by the first record, at a change's commit on the driver
        // thread, it held that thread (and every write) for 5-27 ms on a loaded machine.
        writer.execute(() -> { });
    }

    /** Queues the files' rewrite for {@code committed}; returns at once. */
    void record(EnsembleConfig committed) {
        writer.execute(() -> {
            try {
                DynamicConfigWriter.write(zooCfg, myId, committed);
            } catch (IOException | RuntimeException e) {
                log.error("member {}: cannot record configuration 0x{} beside {} ({}); a restart comes back with"
                        + " the configuration the files still hold and learns this one from the leader; check that"
                        + " the directory is writable and the disk not full", myId,
                        Long.toHexString(committed.version()), zooCfg, e.toString());
            }
        });
    }

    /** Waits up to {@link #CLOSE_WAIT_MS} for the queued writes, then stops the thread. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS)) {
                log.warn("member {}: configuration files beside {} still being written after {} ms; not waiting longer",
                        myId, zooCfg, CLOSE_WAIT_MS);
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
