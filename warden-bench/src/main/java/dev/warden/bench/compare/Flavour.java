package dev.warden.bench.compare;

import java.util.List;

/** Which server a deployment runs. Both start from the benchmark's own class path. */
public enum Flavour {
    APACHE("Apache ZooKeeper", dev.warden.cli.cluster.Flavour.APACHE),
    WARDEN("Warden", dev.warden.cli.cluster.Flavour.WARDEN);

    private final String title;
    private final dev.warden.cli.cluster.Flavour clusterFlavour;

    Flavour(String title, dev.warden.cli.cluster.Flavour clusterFlavour) {
        this.title = title;
        this.clusterFlavour = clusterFlavour;
    }

    public String title() {
        return title;
    }

    /** The same flavour in the local-cluster launcher's terms. */
    dev.warden.cli.cluster.Flavour clusterFlavour() {
        return clusterFlavour;
    }

    /** The main class and its arguments for a standalone member whose configuration is {@code configFile}. */
    List<String> standaloneMainAndArguments(String configFile) {
        return switch (this) {
            case APACHE -> List.of("org.apache.zookeeper.server.ZooKeeperServerMain", configFile);
            case WARDEN -> List.of("dev.warden.cli.Main", "server", "--config", configFile);
        };
    }
}
