package dev.warden.server;

import dev.warden.server.config.ConfigException;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refuses to start on a data directory Apache ZooKeeper wrote. The server does not read ZooKeeper's
 * files (`warden import` converts them): started there it would serve an empty tree and write its own files beside ZooKeeper's,
 * so an operator who pointed Warden at an existing ZooKeeper data directory would find the data
 * gone only once clients miss it. ZooKeeper keeps everything in {@code version-2/} under dataDir
 * and dataLogDir ({@code snapshot.<zxid>}, {@code log.<zxid>}, and a member's
 * {@code acceptedEpoch} and {@code currentEpoch}); Warden's own members keep their epoch files
 * directly in dataDir, so only {@code version-2/} identifies ZooKeeper.
 */
final class ZooKeeperDataCheck {
    static final String ZOOKEEPER_DIR = "version-2";

    private ZooKeeperDataCheck() {
    }

    /** Throws {@link ConfigException} naming the directory if dataDir or dataLogDir holds ZooKeeper data. */
    static void refuseZooKeeperData(ServerConfig config) {
        refuseIn("dataDir", config.dataDir());
        if (!config.dataLogDir().equals(config.dataDir())) {
            refuseIn("dataLogDir", config.dataLogDir());
        }
    }

    private static void refuseIn(String key, Path dir) {
        Path zookeeperDir = dir.resolve(ZOOKEEPER_DIR);
        if (!Files.isDirectory(zookeeperDir)) {
            return;
        }
        String wayOut = " To bring this data to Warden, stop ZooKeeper and run 'warden import --from-zookeeper " + dir
                + " --data-dir NEW_DIR' (docs/MIGRATING.md), then point dataDir at NEW_DIR; to start empty, point"
                + " dataDir and dataLogDir at an empty directory.";
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(zookeeperDir)) {
            for (Path entry : entries) {
                if (isZooKeeperFile(entry.getFileName().toString())) {
                    throw new ConfigException(key, key + "=" + dir + " holds Apache ZooKeeper data (" + entry
                            + "): Warden does not read ZooKeeper's format and would serve an empty tree beside it."
                            + wayOut);
                }
            }
        } catch (IOException unreadable) {
            throw new ConfigException(key, key + "=" + dir + ": cannot tell whether " + zookeeperDir
                    + " holds Apache ZooKeeper data (" + unreadable + ")." + wayOut, unreadable);
        }
    }

    private static boolean isZooKeeperFile(String name) {
        return name.startsWith("snapshot.") || name.startsWith("log.") || name.equals("acceptedEpoch")
                || name.equals("currentEpoch");
    }
}
