package dev.warden.recipes.support;

/**
 * Reads the ten-digit counter a sequential create appends to a node name. Names made by
 * {@code createProtected} carry a uuid prefix, so ordering must use the suffix, never the name.
 */
public final class SequenceSuffix {
    private static final int DIGITS = 10;

    private SequenceSuffix() {
    }

    /** The counter at the end of {@code name}; fails clearly for a name without one. */
    public static long of(String name) {
        if (!has(name)) {
            throw new IllegalArgumentException("node name has no sequence suffix: " + name);
        }
        return Long.parseLong(name.substring(name.length() - DIGITS));
    }

    public static boolean has(String name) {
        if (name.length() < DIGITS) {
            return false;
        }
        for (int i = name.length() - DIGITS; i < name.length(); i++) {
            char c = name.charAt(i);
            // the counter wraps to negative after 2^31 creates, printed with a leading '-'
            if (!Character.isDigit(c) && !(c == '-' && i == name.length() - DIGITS)) {
                return false;
            }
        }
        return true;
    }
}
