package dev.warden.bench.compare;

import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings both flavours get, in every topology: fsync on, a large frame limit (so 1 MiB
 * values fit), no per-address connection limit, every four-letter word, ZooKeeper's usual 2 s tick.
 */
final class MemberConfig {
    static final int TICK_TIME_MS = 2000;

    private MemberConfig() {
    }

    /**
     * zoo.cfg lines shared by standalone and ensemble members, beyond ports and directories. No
     * clientPortAddress: in an ensemble Apache ZooKeeper takes the client address from the server
     * lines and refuses a different one, and every address used here is loopback anyway.
     */
    static List<String> commonLines(Flavour flavour, int juteMaxBufferBytes) {
        List<String> lines = new ArrayList<>(List.of(
                "maxClientCnxns=0",
                "forceSync=yes",
                "4lw.commands.whitelist=*"));
        switch (flavour) {
            case APACHE -> lines.add("admin.enableServer=false");
            // Apache reads its frame limit as a system property, see Deployment.commonSystemProperties
            case WARDEN -> lines.add("jute.maxbuffer=" + juteMaxBufferBytes);
        }
        return lines;
    }

    /** Writes a standalone member's zoo.cfg under {@code memberDir} and returns it. */
    static Path writeStandalone(Flavour flavour, Path memberDir, int clientPort, int juteMaxBufferBytes)
            throws IOException {
        Path dataDir = memberDir.resolve("data");
        Files.createDirectories(dataDir);
        List<String> lines = new ArrayList<>(List.of(
                "tickTime=" + TICK_TIME_MS,
                "dataDir=" + dataDir.toAbsolutePath(),
                "clientPort=" + clientPort,
                "clientPortAddress=127.0.0.1"));
        lines.addAll(commonLines(flavour, juteMaxBufferBytes));
        Path config = memberDir.resolve("zoo.cfg");
        Files.write(config, lines, StandardCharsets.UTF_8);
        return config;
    }
}
