package dev.warden.server.auth;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which {@code x509} identity a verified client certificate gives, by ZooKeeper's rule: the
 * subject's distinguished name in RFC 2253 form (what X509AuthenticationProvider takes), unless
 * {@code ssl.clientCertIdType=SAN}, in which case it is the first subject alternative name of
 * type {@code ssl.clientCertIdSanMatchType} (a GeneralName tag: 1 e-mail, 2 DNS, 6 URI, 7 IP;
 * 6 by default) that matches {@code ssl.clientCertIdSanMatchRegex} whole, cut down to group
 * {@code ssl.clientCertIdSanExtractMatcherGroupIndex} of {@code ssl.clientCertIdSanExtractRegex}.
 * The identity equal to {@code X509AuthenticationProvider.superUser} is the super user as well.
 */
public record X509IdRule(boolean useSan, int sanType, String sanMatchRegex, String sanExtractRegex,
                         int sanExtractGroup, String superUser) {
    public static final String SCHEME = "x509";

    /** The subject DN, no super user. */
    public static final X509IdRule DEFAULT = new X509IdRule(false, 6, ".*", ".*", 0, null);

    /**
     * This rule with one of its keys set; throws IllegalArgumentException naming the key for a
     * bad value.
     */
    public X509IdRule with(String key, String value) {
        String v = value == null ? "" : value.trim();
        return switch (key) {
            case "ssl.clientCertIdType" -> new X509IdRule(san(v), sanType, sanMatchRegex, sanExtractRegex,
                    sanExtractGroup, superUser);
            case "ssl.clientCertIdSanMatchType" -> new X509IdRule(useSan, number(key, v, 0, 8), sanMatchRegex,
                    sanExtractRegex, sanExtractGroup, superUser);
            case "ssl.clientCertIdSanMatchRegex" -> new X509IdRule(useSan, sanType, regex(key, v), sanExtractRegex,
                    sanExtractGroup, superUser);
            case "ssl.clientCertIdSanExtractRegex" -> new X509IdRule(useSan, sanType, sanMatchRegex, regex(key, v),
                    sanExtractGroup, superUser);
            case "ssl.clientCertIdSanExtractMatcherGroupIndex" -> new X509IdRule(useSan, sanType, sanMatchRegex,
                    sanExtractRegex, number(key, v, 0, Integer.MAX_VALUE), superUser);
            case "X509AuthenticationProvider.superUser" -> new X509IdRule(useSan, sanType, sanMatchRegex,
                    sanExtractRegex, sanExtractGroup, v.isEmpty() ? null : v);
            default -> throw new IllegalArgumentException("not an x509 identity key: " + key);
        };
    }

    /** The check that needs two keys: the group asked for must exist in the extract regex. */
    public void check() {
        int groups = Pattern.compile(sanExtractRegex).matcher("").groupCount();
        if (sanExtractGroup > groups) {
            throw new IllegalArgumentException("ssl.clientCertIdSanExtractMatcherGroupIndex=" + sanExtractGroup
                    + " is invalid: ssl.clientCertIdSanExtractRegex '" + sanExtractRegex + "' has " + groups
                    + " groups");
        }
    }

    /** The identity of a certificate the trust manager accepted; empty when the rule finds none in it. */
    public Optional<String> idOf(X509Certificate certificate) {
        if (!useSan) {
            return Optional.of(certificate.getSubjectX500Principal().getName());
        }
        Pattern match = Pattern.compile(sanMatchRegex);
        Pattern extract = Pattern.compile(sanExtractRegex);
        for (String name : alternativeNames(certificate, sanType)) {
            if (match.matcher(name).matches()) {
                Matcher extracted = extract.matcher(name);
                if (!extracted.matches()) {
                    return Optional.empty();
                }
                String id = extracted.group(sanExtractGroup);
                return id == null || id.isEmpty() ? Optional.empty() : Optional.of(id);
            }
        }
        return Optional.empty();
    }

    public boolean isSuper(String id) {
        return superUser != null && superUser.equals(id);
    }

    /** The certificate's subject alternative names of one GeneralName type that have a text form. */
    static List<String> alternativeNames(X509Certificate certificate, int type) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> all = certificate.getSubjectAlternativeNames();
            if (all == null) {
                return names;
            }
            for (List<?> name : all) {
                if (name.size() >= 2 && name.get(0) instanceof Integer t && t == type && name.get(1) instanceof String s) {
                    names.add(s);
                }
            }
        } catch (CertificateParsingException unreadable) {
            // a certificate whose SAN extension cannot be read gives no name
        }
        return names;
    }

    private static boolean san(String value) {
        if (value.isEmpty() || value.equalsIgnoreCase("SDN") || value.equalsIgnoreCase("SubjectDN")) {
            return false;
        }
        if (value.toUpperCase(Locale.ROOT).equals("SAN")) {
            return true;
        }
        throw new IllegalArgumentException("ssl.clientCertIdType='" + value + "' is invalid: must be SAN for a"
                + " subject alternative name, or SDN (the default) for the subject's distinguished name");
    }

    private static int number(String key, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(key + "='" + value + "' is invalid: must be a whole number from " + min
                + " to " + max);
    }

    private static String regex(String key, String value) {
        String text = value.isEmpty() ? ".*" : value;
        try {
            Pattern.compile(text);
            return text;
        } catch (PatternSyntaxException bad) {
            throw new IllegalArgumentException(key + "='" + value + "' is not a regular expression: "
                    + bad.getDescription());
        }
    }
}
