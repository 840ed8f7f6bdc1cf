package dev.warden.recipes.support;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the names of ephemeral-sequential participant nodes: {@code [_p_<uuid>-]<prefix><10 digits>}.
 * The server appends the parent's ten-digit counter, shared by all children of that parent, so
 * nodes of different kinds in one directory (for example {@code read-} and {@code write-}) are
 * totally ordered by it.
 */
public final class SequenceNames {
    /** Marker that a safe create puts in front of the name: {@code _p_} + 36-char uuid + {@code -}. */
    static final String PROTECTED_PREFIX = "_p_";
    private static final int UUID_CHARS = 36;
    private static final int SEQUENCE_DIGITS = 10;

    private SequenceNames() {
    }

    /** The name without its safe-create marker, if it has one. */
    public static String withoutMarker(String name) {
        int markerLength = PROTECTED_PREFIX.length() + UUID_CHARS + 1;
        if (name.startsWith(PROTECTED_PREFIX) && name.length() > markerLength && name.charAt(markerLength - 1) == '-') {
            return name.substring(markerLength);
        }
        return name;
    }

    /** True if the name (marker aside) is {@code prefix} followed by a sequence number. */
    public static boolean hasPrefix(String name, String prefix) {
        String bare = withoutMarker(name);
        return bare.startsWith(prefix) && bare.length() == prefix.length() + SEQUENCE_DIGITS && isDigits(bare, prefix.length());
    }

    /** The sequence number at the end of the name. */
    public static long sequenceOf(String name) {
        if (name.length() < SEQUENCE_DIGITS || !isDigits(name, name.length() - SEQUENCE_DIGITS)) {
            throw new IllegalArgumentException("not a sequential node name: " + name);
        }
        return Long.parseLong(name.substring(name.length() - SEQUENCE_DIGITS));
    }

    /** The names that have one of the prefixes, lowest sequence first. */
    public static List<String> sortedParticipants(List<String> children, List<String> prefixes) {
        List<String> participants = new ArrayList<>();
        for (String child : children) {
            for (String prefix : prefixes) {
                if (hasPrefix(child, prefix)) {
                    participants.add(child);
                    break;
                }
            }
        }
        participants.sort(Comparator.comparingLong(SequenceNames::sequenceOf));
        return participants;
    }

    private static boolean isDigits(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return from < text.length();
    }
}
