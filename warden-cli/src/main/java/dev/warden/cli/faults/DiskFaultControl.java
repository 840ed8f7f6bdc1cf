package dev.warden.cli.faults;

import dev.warden.storage.FaultInjectingChannels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For fault tests of a real server process: puts the transaction log on
 * {@link FaultInjectingChannels} driven by a control file that a test harness rewrites while the
 * server runs. Off unless the JVM is started with {@code -D}{@value #PROPERTY}{@code =<file>}. The
 * file holds words separated by spaces; each rewrite replaces the whole set:
 * <ul>
 *   <li>{@code slow=MS}: every fsync takes MS longer;</li>
 *   <li>{@code full}: the disk is full (writes fail with "No space left on device");</li>
 *   <li>{@code fsync-fail}: every fsync fails with an I/O error;</li>
 *   <li>{@code journal}: every write is journaled (in {@value #JOURNAL_FILE} beside the control
 *       file) so that after a SIGKILL {@link UnsyncedWriteJournal#undo} can take back whatever was
 *       not fsynced, as a power cut would.</li>
 * </ul>
 * An empty or missing file is a healthy disk.
 */
public final class DiskFaultControl {
    public static final String PROPERTY = "warden.faults.diskControlFile";
    public static final String JOURNAL_FILE = "unsynced-writes.journal";
    private static final Logger log = LoggerFactory.getLogger(DiskFaultControl.class);
    private static final long POLL_MS = 50;

    private final Path controlFile;
    private final FaultInjectingChannels channels = new FaultInjectingChannels();
    private final UnsyncedWriteJournal journal;
    private volatile boolean journaling;
    private volatile boolean fsyncFails;
    private FileTime lastSeen;
    private String lastWords = "";

    private DiskFaultControl(Path controlFile) throws IOException {
        this.controlFile = controlFile.toAbsolutePath();
        this.journal = new UnsyncedWriteJournal(this.controlFile.resolveSibling(JOURNAL_FILE));
        channels.hookWrites((file, position, bytes) -> {
            if (journaling) {
                journal.beforeWrite(file, position, bytes.remaining());
            }
        });
        channels.hookForces(new FaultInjectingChannels.ForceHook() {
            @Override
            public void beforeForce(Path file) throws IOException {
                if (fsyncFails) {
                    throw new IOException("Input/output error (injected by " + controlFile + ")");
                }
            }

            @Override
            public void afterForce(Path file) {
                try {
                    journal.afterForce(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
    }

    /** The control named by {@value #PROPERTY}, polling its file; empty when the property is unset. */
    public static java.util.Optional<DiskFaultControl> fromSystemProperty() throws IOException {
        String file = System.getProperty(PROPERTY);
        if (file == null || file.isBlank()) {
            return java.util.Optional.empty();
        }
        DiskFaultControl control = new DiskFaultControl(Path.of(file));
        control.apply();
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "disk-fault-control");
            thread.setDaemon(true);
            return thread;
        });
        poller.scheduleWithFixedDelay(control::applyQuietly, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
        log.warn("disk faults may be injected through {} (testing only)", control.controlFile);
        return java.util.Optional.of(control);
    }

    public FaultInjectingChannels channels() {
        return channels;
    }

    private void applyQuietly() {
        try {
            apply();
        } catch (IOException | RuntimeException e) {
            log.warn("cannot read the disk fault control file {}: {}", controlFile, e.toString());
        }
    }

    private synchronized void apply() throws IOException {
        FileTime modified;
        String text;
        try {
            modified = Files.getLastModifiedTime(controlFile);
            if (modified.equals(lastSeen)) {
                return;
            }
            text = Files.readString(controlFile).trim();
        } catch (NoSuchFileException absent) {
            modified = null;
            text = "";
        }
        lastSeen = modified;
        if (text.equals(lastWords)) {
            return;
        }
        long slowMs = 0;
        boolean full = false;
        boolean failing = false;
        boolean journal = false;
        for (String word : text.isEmpty() ? List.<String>of() : List.of(text.split("\\s+"))) {
            if (word.startsWith("slow=")) {
                slowMs = Long.parseLong(word.substring("slow=".length()));
            } else if (word.equals("full")) {
                full = true;
            } else if (word.equals("fsync-fail")) {
                failing = true;
            } else if (word.equals("journal")) {
                journal = true;
            } else {
                throw new IllegalArgumentException("unknown disk fault '" + word + "' in " + controlFile
                        + "; expected slow=MS, full, fsync-fail or journal");
            }
        }
        channels.delayForcesBy(slowMs);
        if (full) {
            channels.limitWritesTo(0);
        } else {
            channels.allowWrites();
        }
        fsyncFails = failing;
        journaling = journal;
        log.warn("disk faults now: '{}'", text);
        lastWords = text;
    }
}
