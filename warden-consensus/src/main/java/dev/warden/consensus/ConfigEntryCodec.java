package dev.warden.consensus;

/**
 * Tells the core which log entries change the configuration. Entries are opaque to the core;
 * the application that writes them (the server's transaction format) recognises its own
 * configuration changes. Called for every entry a member logs, so it must be cheap for the
 * entries that are not.
 */
@FunctionalInterface
public interface ConfigEntryCodec {
    /** No entry ever changes the configuration (a static ensemble). */
    ConfigEntryCodec NONE = entry -> null;

    /**
     * The configuration {@code entry} installs, or null if it is not a configuration change. The
     * core gives it the entry's zxid as its version, whatever version it carries.
     */
    Configuration configurationIn(Entry entry);
}
