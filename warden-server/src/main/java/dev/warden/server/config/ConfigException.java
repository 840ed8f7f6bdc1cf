package dev.warden.server.config;

/**
 * A server configuration that cannot be used. The message is meant for the operator: it names
 * the key, the offending value and what would have been accepted.
 */
public final class ConfigException extends RuntimeException {
    private final String key;

    public ConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    public ConfigException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** Builds the standard "key=value is invalid: allowed" message. */
    public static ConfigException invalid(String key, Object value, String allowed) {
        return new ConfigException(key, key + "='" + value + "' is invalid: " + allowed);
    }

    /** The configuration key at fault, or null when the problem is the file itself. */
    public String key() {
        return key;
    }
}
