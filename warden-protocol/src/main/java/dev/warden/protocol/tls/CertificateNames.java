package dev.warden.protocol.tls;

import java.net.InetAddress;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Whether a certificate names a host: IP addresses against its IP address alternative names,
 * host names against its DNS names (a leading {@code *.} covers one label), and, only when the
 * certificate has no alternative name of the kind, against its subject's CN, as ZooKeeper's
 * host name verifier does.
 */
public final class CertificateNames {
    private static final int DNS_NAME = 2;
    private static final int IP_ADDRESS = 7;

    private CertificateNames() {
    }

    public static boolean names(X509Certificate certificate, String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean ip = isIpLiteral(bare);
        List<String> alternatives = alternativeNames(certificate, ip ? IP_ADDRESS : DNS_NAME);
        if (ip) {
            for (String name : alternatives) {
                if (sameAddress(name, bare)) {
                    return true;
                }
            }
            return false;
        }
        if (alternatives.isEmpty()) {
            String cn = commonName(certificate);
            return cn != null && dnsMatches(cn, bare);
        }
        for (String name : alternatives) {
            if (dnsMatches(name, bare)) {
                return true;
            }
        }
        return false;
    }

    /** The alternative names of one GeneralName type (2 DNS, 7 IP, 6 URI, ...), as strings. */
    public static List<String> alternativeNames(X509Certificate certificate, int type) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> all = certificate.getSubjectAlternativeNames();
            if (all != null) {
                for (List<?> entry : all) {
                    if (entry.size() >= 2 && entry.get(0) instanceof Integer t && t == type
                            && entry.get(1) instanceof String value) {
                        names.add(value);
                    }
                }
            }
        } catch (CertificateParsingException unreadable) {
            // a certificate whose alternative names do not parse names nothing
        }
        return names;
    }

    private static String commonName(X509Certificate certificate) {
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return rdn.getValue().toString();
                }
            }
        } catch (InvalidNameException unreadable) {
            return null;
        }
        return null;
    }

    private static boolean dnsMatches(String pattern, String host) {
        String p = pattern.toLowerCase(Locale.ROOT);
        String h = host.toLowerCase(Locale.ROOT);
        if (p.startsWith("*.")) {
            int dot = h.indexOf('.');
            return dot > 0 && h.substring(dot).equals(p.substring(1));
        }
        return p.equals(h);
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    }

    private static boolean sameAddress(String a, String b) {
        try {
            // both are literals, so no name lookup happens
            return InetAddress.getByName(a).equals(InetAddress.getByName(b));
        } catch (java.net.UnknownHostException notAnAddress) {
            return false;
        }
    }
}
