package dev.warden.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The line {@code warden version} and {@code --version} print, from the build version the server
 * reports too ({@link dev.warden.server.common.WardenVersion}). {@link Main} prints it without building
 * the command tree; this class loads nothing of picocli but the one interface it implements.
 */
public final class VersionLine implements IVersionProvider {
    /** e.g. "0.1.0-SNAPSHOT". */
    public static String current() {
        return dev.warden.server.common.WardenVersion.current();
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
