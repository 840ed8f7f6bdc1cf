package dev.warden.recipes.chubby;

/**
 * Proof of holding a lock that a lock holder hands to a resource server with each request:
 * the lock node's path and its data version when the sequencer was taken. The node is
 * ephemeral-sequential, so its path is never reused; any change to it (deletion on release or
 * session expiry, or a data change) makes the sequencer stale.
 *
 * @param nodePath the lock node
 * @param version  the node's data version
 */
public record Sequencer(String nodePath, int version) {
    private static final char SEPARATOR = '@';

    public Sequencer {
        if (nodePath == null || !nodePath.startsWith("/")) {
            throw new IllegalArgumentException("sequencer needs an absolute node path, got: " + nodePath);
        }
        if (version < 0) {
            throw new IllegalArgumentException("negative sequencer version: " + version);
        }
    }

    /** A one-line form to send along with requests: {@code <path>@<version>}. */
    public String encode() {
        return nodePath + SEPARATOR + version;
    }

    /** Reads {@link #encode()}'s form; throws IllegalArgumentException on anything else. */
    public static Sequencer parse(String encoded) {
        int at = encoded == null ? -1 : encoded.lastIndexOf(SEPARATOR);
        if (at <= 0) {
            throw new IllegalArgumentException("not a sequencer: " + encoded);
        }
        try {
            return new Sequencer(encoded.substring(0, at), Integer.parseInt(encoded.substring(at + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a sequencer: " + encoded, e);
        }
    }
}
