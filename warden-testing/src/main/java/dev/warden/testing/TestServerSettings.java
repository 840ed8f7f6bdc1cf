package dev.warden.testing;

import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.Set;

/**
 * What every server this module starts has in common, and why.
 *
 * <ul>
 *   <li>A 500 ms tick with sessions from 1 s to 60 s: a test can ask for a short session to
 *       see it expire quickly, and Curator's default of 60 s is granted as asked.</li>
 *   <li>Every four-letter word allowed, so tests can ask {@code mntr} or {@code ruok}.</li>
 *   <li>In memory mode: no fsync and a small preallocation (the log lives in the heap).</li>
 *   <li>No direct I/O: it does not apply to the in-memory file system, and a temporary
 *       directory on disk is often on tmpfs, which refuses it with a warning.</li>
 * </ul>
 */
final class TestServerSettings {
    static final int TICK_MS = 500;
    static final int MIN_SESSION_TIMEOUT_MS = 1_000;
    static final int MAX_SESSION_TIMEOUT_MS = 60_000;
    /** 64 KiB: enough for thousands of small writes before the log grows the file. */
    private static final long IN_MEMORY_PREALLOC_BYTES = 64 * 1024;
    private static final long DURABLE_PREALLOC_BYTES = 4 * 1024 * 1024;

    private TestServerSettings() {
    }

    static ServerConfig.Builder base(Path dataDir, int clientPort, boolean inMemory) {
        return ServerConfig.builder()
                .dataDir(dataDir)
                .clientPort(clientPort)
                .clientPortAddress("127.0.0.1")
                .tickTimeMs(TICK_MS)
                .minSessionTimeoutMs(MIN_SESSION_TIMEOUT_MS)
                .maxSessionTimeoutMs(MAX_SESSION_TIMEOUT_MS)
                .maxClientCnxns(1_000)
                .fourLetterWordWhitelist(Set.of("*"))
                .forceSync(!inMemory)
                .txnLogDirectIo(false)
                .preAllocSizeBytes(inMemory ? IN_MEMORY_PREALLOC_BYTES : DURABLE_PREALLOC_BYTES);
    }
}
