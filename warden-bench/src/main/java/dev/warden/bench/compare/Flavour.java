package dev.warden.bench.compare;

import java.util.List;

/** Which server a deployment runs. Both start from the benchmark's own class path. */
public enum Flavour {
    APACHE("Apache ZooKeeper"),
    WARDEN("Warden");

    private final String title;

    Flavour(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    /** The main class and its arguments for a member whose configuration is {@code configFile}. */
    List<String> mainAndArguments(Topology topology, String configFile) {
        return switch (this) {
            case APACHE -> List.of(topology == Topology.STANDALONE
                    ? "org.apache.zookeeper.server.ZooKeeperServerMain"
                    : "org.apache.zookeeper.server.quorum.QuorumPeerMain", configFile);
            case WARDEN -> List.of("dev.warden.cli.Main", "server", "--config", configFile);
        };
    }

    /**
     * JVM options beyond the heap. Apache ZooKeeper reads some settings only as system properties:
     * the frame limit, and (to be explicit) fsync before acknowledging. Its admin web server is off
     * so members do not fight over port 8080.
     */
    List<String> jvmOptions(int juteMaxBufferBytes) {
        return switch (this) {
            case APACHE -> List.of("-Djute.maxbuffer=" + juteMaxBufferBytes, "-Dzookeeper.forceSync=yes",
                    "-Dzookeeper.admin.enableServer=false");
            case WARDEN -> List.of();
        };
    }
}
