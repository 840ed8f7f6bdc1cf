package dev.warden.protocol.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A password (of a key store, a trust store, a SASL user) that must never reach a log, an error
 * message or a four-letter word: {@link #toString()} hides it, and only {@link #chars()} gives
 * it out, for the one API that needs it.
 */
public final class Secret {
    public static final Secret NONE = new Secret(new char[0]);
    public static final String HIDDEN = "<hidden>";

    private final char[] value;

    private Secret(char[] value) {
        this.value = value;
    }

    public static Secret of(String value) {
        return value == null ? NONE : new Secret(value.toCharArray());
    }

    /**
     * The secret held in a file (ZooKeeper's {@code passwordPath} keys): its content, without a
     * trailing line break. {@code key} names the setting in the error for an unreadable file.
     */
    public static Secret fromFile(String key, Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            while (text.endsWith("\n") || text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            return new Secret(text.toCharArray());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(key + ": cannot read the password file " + file + " ("
                    + e.getClass().getSimpleName() + "); make it readable by the server, or give the password"
                    + " itself", e);
        }
    }

    public boolean isEmpty() {
        return value.length == 0;
    }

    /** A copy of the secret, for the API that needs it. */
    public char[] chars() {
        return value.clone();
    }

    /** As a String, for APIs that take no char[] (JAAS options, SASL callbacks). */
    public String reveal() {
        return new String(value);
    }

    @Override
    public String toString() {
        return isEmpty() ? "" : HIDDEN;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret s && java.util.Arrays.equals(s.value, value);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(value);
    }
}
