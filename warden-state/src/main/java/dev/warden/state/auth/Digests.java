package dev.warden.state.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The digest scheme: id = user + ":" + base64(SHA-1("user:password")). */
public final class Digests {
    private Digests() {
    }

    /** The digest id for "user:password" credentials. */
    public static String idFor(String userColonPassword) {
        int colon = userColonPassword.indexOf(':');
        String user = colon < 0 ? userColonPassword : userColonPassword.substring(0, colon);
        return user + ":" + hash(userColonPassword);
    }

    private static String hash(String userColonPassword) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(userColonPassword.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }

    /** A digest ACL id must be "user:hash": exactly two non-empty parts. */
    public static boolean isValidId(String id) {
        if (id == null) {
            return false;
        }
        int colon = id.indexOf(':');
        return colon > 0 && colon < id.length() - 1 && id.indexOf(':', colon + 1) < 0;
    }
}
