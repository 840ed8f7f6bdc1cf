package dev.warden.server.security;

import dev.warden.protocol.tls.CertificateNames;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code x509} identity a client's verified certificate gives its connection, chosen as
 * ZooKeeper's {@code ssl.clientCertIdType} keys choose it: the subject's distinguished name
 * (RFC 2253, the default), or one subject alternative name: the first of type
 * {@code ssl.clientCertIdSanMatchType} (a GeneralName tag: 1 e-mail, 2 DNS, 6 URI, 7 IP)
 * matching {@code ssl.clientCertIdSanMatchRegex}, cut down to group
 * {@code ssl.clientCertIdSanExtractMatcherGroupIndex} of {@code ssl.clientCertIdSanExtractRegex}.
 * {@code X509AuthenticationProvider.superUser} names the identity that is also super.
 */
public record X509Identities(boolean useSan, int sanType, String sanMatchRegex, String sanExtractRegex,
                             int extractGroup, String superUser) {
    public static final String SCHEME = "x509";

    public static final List<String> KEYS = List.of("ssl.clientCertIdType", "ssl.clientCertIdSanMatchType",
            "ssl.clientCertIdSanMatchRegex", "ssl.clientCertIdSanExtractRegex",
            "ssl.clientCertIdSanExtractMatcherGroupIndex", "X509AuthenticationProvider.superUser");

    /** Subject DN, no super user. */
    public static final X509Identities DEFAULT = new X509Identities(false, 6, ".*", ".*", 0, null);

    public static X509Identities parse(Function<String, String> lookup) {
        String type = lookup.apply("ssl.clientCertIdType");
        boolean san;
        if (type == null || type.isEmpty() || type.equalsIgnoreCase("SDN") || type.equalsIgnoreCase("SubjectDN")) {
            san = false;
        } else if (type.toUpperCase(Locale.ROOT).equals("SAN")) {
            san = true;
        } else {
            throw new IllegalArgumentException("ssl.clientCertIdType='" + type + "' is invalid: must be SAN, or"
                    + " unset for the subject's distinguished name");
        }
        int sanType = integer(lookup, "ssl.clientCertIdSanMatchType", 6, 0, 8);
        Pattern match = pattern(lookup, "ssl.clientCertIdSanMatchRegex");
        Pattern extract = pattern(lookup, "ssl.clientCertIdSanExtractRegex");
        int group = integer(lookup, "ssl.clientCertIdSanExtractMatcherGroupIndex", 0, 0, Integer.MAX_VALUE);
        if (group > extract.matcher("").groupCount()) {
            throw new IllegalArgumentException("ssl.clientCertIdSanExtractMatcherGroupIndex=" + group + " is"
                    + " invalid: ssl.clientCertIdSanExtractRegex has only " + extract.matcher("").groupCount()
                    + " groups");
        }
        String superUser = lookup.apply("X509AuthenticationProvider.superUser");
        return new X509Identities(san, sanType, match.pattern(), extract.pattern(), group,
                superUser == null || superUser.isEmpty() ? null : superUser);
    }

    /** The identity of a client whose certificate the trust manager accepted; empty if it yields none. */
    public Optional<String> idOf(X509Certificate certificate) {
        if (!useSan) {
            return Optional.of(certificate.getSubjectX500Principal().getName());
        }
        for (String name : CertificateNames.alternativeNames(certificate, sanType)) {
            if (Pattern.compile(sanMatchRegex).matcher(name).matches()) {
                Matcher extract = Pattern.compile(sanExtractRegex).matcher(name);
                if (extract.matches()) {
                    String id = extract.group(extractGroup);
                    return id == null || id.isEmpty() ? Optional.empty() : Optional.of(id);
                }
            }
        }
        return Optional.empty();
    }

    /** The keys that give these settings, for {@code conf} and a round trip through the loader. */
    public java.util.Map<String, String> settings() {
        java.util.Map<String, String> s = new java.util.LinkedHashMap<>();
        if (useSan) {
            s.put("ssl.clientCertIdType", "SAN");
            s.put("ssl.clientCertIdSanMatchType", Integer.toString(sanType));
            s.put("ssl.clientCertIdSanMatchRegex", sanMatchRegex);
            s.put("ssl.clientCertIdSanExtractRegex", sanExtractRegex);
            s.put("ssl.clientCertIdSanExtractMatcherGroupIndex", Integer.toString(extractGroup));
        }
        if (superUser != null) {
            s.put("X509AuthenticationProvider.superUser", superUser);
        }
        return s;
    }

    public boolean isSuper(String id) {
        return superUser != null && superUser.equals(id);
    }

    private static int integer(Function<String, String> lookup, String key, int fallback, int min, int max) {
        String text = lookup.apply(key);
        if (text == null || text.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(key + "='" + text + "' is invalid: must be a number from " + min + " to "
                + max);
    }

    private static Pattern pattern(Function<String, String> lookup, String key) {
        String text = lookup.apply(key);
        try {
            return Pattern.compile(text == null || text.isEmpty() ? ".*" : text);
        } catch (PatternSyntaxException bad) {
            throw new IllegalArgumentException(key + "='" + text + "' is not a regular expression: "
                    + bad.getDescription());
        }
    }
}
