package dev.warden.bench.resources;

import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.file.Path;

/** A server running inside the probe's JVM, so the probe can weigh its heap. */
interface EmbeddedServer extends AutoCloseable {
    String connectString();

    /** Writes a snapshot now and returns its file once durable. */
    Path snapshotNow() throws IOException;

    @Override
    void close();

    /** Starts a server on {@code dataDir} that snapshots every snapCount/2 to snapCount transactions. */
    static EmbeddedServer start(Flavour flavour, Path dataDir, int snapCount) throws IOException {
        return switch (flavour) {
            case WARDEN -> WardenEmbedded.start(dataDir, snapCount);
            case APACHE -> ApacheEmbedded.start(dataDir, snapCount);
        };
    }
}
