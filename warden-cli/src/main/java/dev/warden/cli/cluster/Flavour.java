package dev.warden.cli.cluster;

import java.nio.file.Path;
import java.util.List;

/**
 * Which server implementation a local ensemble runs. The cluster code never loads the
 * implementation's classes: it only knows the main class to launch and the config it wants,
 * so the caller decides the classpath (a Warden distribution, or one holding the ZooKeeper jars).
 */
public enum Flavour {
    /** Apache ZooKeeper 3.9's {@code QuorumPeerMain zoo.cfg}, the baseline and test oracle. */
    APACHE("Apache ZooKeeper", "org.apache.zookeeper.server.quorum.QuorumPeerMain",
            List.of("admin.enableServer=false", "standaloneEnabled=false", "reconfigEnabled=false"),
            // no JMX connector or log4j MBeans: they cost start time and nothing here reads them
            List.of("-Dzookeeper.jmx.log4j.disable=true", "-Dzookeeper.admin.enableServer=false")) {
        @Override
        public List<String> programArguments(Path configFile) {
            return List.of(configFile.toString());
        }
    },
    /** {@code dev.warden.cli.Main server --config zoo.cfg}. */
    WARDEN("Warden", "dev.warden.cli.Main", List.of(), List.of()) {
        @Override
        public List<String> programArguments(Path configFile) {
            return List.of("server", "--config", configFile.toString());
        }
    };

    private final String title;
    private final String mainClass;
    private final List<String> extraConfigLines;
    private final List<String> systemProperties;

    Flavour(String title, String mainClass, List<String> extraConfigLines, List<String> systemProperties) {
        this.title = title;
        this.mainClass = mainClass;
        this.extraConfigLines = extraConfigLines;
        this.systemProperties = systemProperties;
    }

    /** The server's name in reports. */
    public String title() {
        return title;
    }

    /** {@code warden} or {@code apache}: the flavour on a command line and in file names. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public String mainClass() {
        return mainClass;
    }

    /** The main class and its arguments for a standalone server whose configuration is {@code configFile}. */
    public List<String> standaloneMainAndArguments(String configFile) {
        return switch (this) {
            case APACHE -> List.of("org.apache.zookeeper.server.ZooKeeperServerMain", configFile);
            case WARDEN -> List.of("dev.warden.cli.Main", "server", "--config", configFile);
        };
    }

    /** zoo.cfg lines this flavour needs beyond the common ensemble config. */
    public List<String> extraConfigLines() {
        return extraConfigLines;
    }

    /** {@code -D} options this flavour needs on the member JVM's command line. */
    public List<String> systemProperties() {
        return systemProperties;
    }

    /** Arguments after the main class. */
    public abstract List<String> programArguments(Path configFile);

    /** Parses {@code warden}/{@code apache} in any case; anything else is a clear error. */
    public static Flavour parse(String name) {
        for (Flavour flavour : values()) {
            if (flavour.name().equalsIgnoreCase(name.trim())) {
                return flavour;
            }
        }
        throw new IllegalArgumentException("unknown server flavour '" + name + "': expected warden or apache");
    }
}
