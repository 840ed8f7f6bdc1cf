package dev.warden.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The build's version, from a resource Maven fills in, so it is right in tests and in the jar.
 * {@link Main} prints it without building the command tree; this class loads nothing of picocli
 * but the one interface it implements.
 */
public final class WardenVersion implements IVersionProvider {
    private static final String RESOURCE = "version.properties";

    /** e.g. "0.1.0-SNAPSHOT". */
    public static String current() {
        Properties p = new Properties();
        try (InputStream in = WardenVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the warden-cli build");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    /** The line the version command and --version print. */
    public static String describe() {
        return "Warden " + current() + " (Java " + Runtime.version() + ")";
    }

    @Override
    public String[] getVersion() {
        return new String[] {describe()};
    }
}
