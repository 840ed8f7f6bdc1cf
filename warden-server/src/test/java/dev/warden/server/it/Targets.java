package dev.warden.server.it;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses and starts the servers the suites run against. The list comes from
 * {@code -Dwarden.targets=apache,warden,warden3} (the default): Apache ZooKeeper as the oracle,
 * a standalone Warden, and a three-member Warden ensemble whose clients are spread over members.
 */
final class Targets {
    /** The credentials every target accepts as the super user ({@code addAuthInfo("digest", ...)}). */
    static final String SUPER_AUTH = "super:conformance-super-secret";

    private Targets() {
    }

    /** Target names for {@code @MethodSource}. */
    static List<String> names() {
        return parse(System.getProperty("warden.targets", "apache,warden,warden3"));
    }

    /** The two targets compared by {@link DifferentialTest} on single servers. */
    static List<String> differentialPair() {
        return pair("warden.diff.targets", "apache,warden");
    }

    /** The two targets compared by {@link DifferentialTest} on three-member ensembles. */
    static List<String> ensembleDifferentialPair() {
        return pair("warden.diff.ensembleTargets", "apache3,warden3");
    }

    private static List<String> pair(String property, String defaults) {
        List<String> pair = parse(System.getProperty(property, defaults));
        if (pair.size() != 2) {
            throw new IllegalArgumentException(property + " needs exactly two names: " + pair);
        }
        return pair;
    }

    static TargetServer start(String name, Path dataDir) throws Exception {
        switch (name) {
            case "apache":
                return ApacheTarget.start(dataDir, superDigest());
            case "warden":
                return WardenTarget.start(dataDir, superDigest());
            case "warden3":
                return Warden3Target.start(dataDir, superDigest());
            case "apache3":
                return Apache3Target.start(dataDir, superDigest());
            default:
                throw new IllegalArgumentException("unknown target " + name);
        }
    }

    /** The digest form of {@link #SUPER_AUTH}, as servers are configured with it. */
    static String superDigest() {
        return digestId(SUPER_AUTH);
    }

    /**
     * The digest-scheme id for "user:password": user, ':', base64 of SHA-1 over the whole string.
     * Computed here rather than with Apache's provider, whose class reads the super digest
     * property once when first loaded and so must not be touched before the server is set up.
     */
    static String digestId(String userAndPassword) {
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-1")
                .digest(userAndPassword.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            String user = userAndPassword.substring(0, userAndPassword.indexOf(':'));
            return user + ":" + java.util.Base64.getEncoder().encodeToString(hash);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> parse(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
