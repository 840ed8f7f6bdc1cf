package dev.warden.consensus;

import java.util.List;

/**
 * What a member knows of its configurations when it starts (and what a leader tells a member it
 * synchronizes): the newest configuration known to be committed, and the configuration entries
 * after it that are logged but not known committed, oldest first. Until those are committed
 * every quorum must be a quorum of each of them as well as of the committed one.
 */
public record Configurations(Configuration committed, List<Configuration> logged) {
    public Configurations {
        if (committed == null) {
            throw new IllegalArgumentException("no committed configuration");
        }
        logged = List.copyOf(logged);
        long previous = committed.version();
        for (Configuration configuration : logged) {
            if (configuration.version() <= previous) {
                throw new IllegalArgumentException("logged configuration " + Zxid.hex(configuration.version())
                        + " does not follow " + Zxid.hex(previous));
            }
            previous = configuration.version();
        }
    }

    public static Configurations of(Configuration committed) {
        return new Configurations(committed, List.of());
    }

    /** The newest: the last logged one, or the committed one. */
    public Configuration latest() {
        return logged.isEmpty() ? committed : logged.get(logged.size() - 1);
    }
}
