package dev.warden.cli.cluster;

import java.nio.file.Path;
import java.util.List;

/**
 * Which server implementation a local ensemble runs. The cluster code never loads the
 * implementation's classes: it only knows the main class to launch and the config it wants,
 * so the caller decides the classpath (a Warden distribution, or one holding the ZooKeeper jars).
 */
public enum Flavour {
    /** {@code dev.warden.cli.Main server --config zoo.cfg}. */
    WARDEN("dev.warden.cli.Main", List.of(), List.of()) {
        @Override
        public List<String> programArguments(Path configFile) {
            return List.of("server", "--config", configFile.toString());
        }
    },
    /** Apache ZooKeeper 3.9's {@code QuorumPeerMain zoo.cfg}, the baseline and test oracle. */
    APACHE("org.apache.zookeeper.server.quorum.QuorumPeerMain",
            List.of("admin.enableServer=false", "standaloneEnabled=false", "reconfigEnabled=false"),
            // no JMX connector or log4j MBeans: they cost start time and nothing here reads them
            List.of("-Dzookeeper.jmx.log4j.disable=true", "-Dzookeeper.admin.enableServer=false")) {
        @Override
        public List<String> programArguments(Path configFile) {
            return List.of(configFile.toString());
        }
    };

    private final String mainClass;
    private final List<String> extraConfigLines;
    private final List<String> systemProperties;

    Flavour(String mainClass, List<String> extraConfigLines, List<String> systemProperties) {
        this.mainClass = mainClass;
        this.extraConfigLines = extraConfigLines;
        this.systemProperties = systemProperties;
    }

    public String mainClass() {
        return mainClass;
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
        throw new IllegalArgumentException("unknown ensemble flavour '" + name + "', expected warden or apache");
    }
}
