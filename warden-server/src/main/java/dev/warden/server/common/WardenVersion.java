package dev.warden.server.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The build's version and time, from a resource Maven fills in when it builds warden-server, so
 * the server's words ({@code srvr}, {@code mntr}, {@code envi}, JMX, the AdminServer) and the
 * {@code warden} command report the same build.
 */
public final class WardenVersion {
    private static final String RESOURCE = "version.properties";
    /** The ZooKeeper release whose wire protocol Warden speaks. */
    private static final String ZOOKEEPER_PROTOCOL_VERSION = "3.9.5";
    private static final Properties BUILD = load();

    /**
     * What the server reports as its version, shaped as ZooKeeper's ("3.9.5-..., built on ..."):
     * clients and scripts parse the part before the first '-' as the ZooKeeper version.
     */
    public static final String DESCRIPTION = ZOOKEEPER_PROTOCOL_VERSION + "-warden-" + current() + ", built on "
            + BUILD.getProperty("built");

    private WardenVersion() {
    }

    /** The project version, e.g. "0.1.0-SNAPSHOT". */
    public static String current() {
        return BUILD.getProperty("version");
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = WardenVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the warden-server build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
