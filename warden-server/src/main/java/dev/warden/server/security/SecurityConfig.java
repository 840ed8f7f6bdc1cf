package dev.warden.server.security;

import dev.warden.protocol.tls.TlsSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A server's security settings (docs/SECURITY.md has every key): TLS on the client port
 * ({@code secureClientPort}, {@code client.portUnification}, {@code ssl.*}), the x509
 * identities it gives, TLS between members ({@code sslQuorum}, {@code portUnification},
 * {@code ssl.quorum.*}), SASL for clients and between members, and enforced authentication.
 *
 * @param secureClientPort        TLS-only client port; 0 for none
 * @param secureClientPortAddress address of the TLS port; null for {@code clientPortAddress}
 * @param clientTls               the client port's TLS settings; null when neither a secure port nor
 *                                port unification is configured
 * @param certReload              re-read the client port's key and trust stores when they change
 * @param quorumTls               the members' TLS settings; null unless {@code sslQuorum} or
 *                                {@code portUnification} is set
 * @param quorumCertReload        the same for the members' stores ({@code sslQuorumReloadCertFiles})
 */
public record SecurityConfig(int secureClientPort, String secureClientPortAddress, boolean clientPortUnification,
                             TlsSettings clientTls, boolean certReload, X509Identities x509, boolean sslQuorum,
                             boolean quorumPortUnification, TlsSettings quorumTls, boolean quorumCertReload,
                             SaslSettings sasl, AuthEnforcement enforcement, QuorumSaslSettings quorumSasl) {

    public static final SecurityConfig NONE = new SecurityConfig(0, null, false, null, true, X509Identities.DEFAULT,
            false, false, null, true, SaslSettings.NONE, AuthEnforcement.OFF, QuorumSaslSettings.OFF);

    public SecurityConfig {
        if (secureClientPort < 0 || secureClientPort > 65535) {
            throw new IllegalArgumentException("secureClientPort=" + secureClientPort + " is invalid: must be a port"
                    + " from 1 to 65535, or 0 for no TLS client port");
        }
        if ((secureClientPort > 0 || clientPortUnification) && (clientTls == null || clientTls.keyStore() == null)) {
            throw new IllegalArgumentException((secureClientPort > 0 ? "secureClientPort" : "client.portUnification")
                    + " is set but ssl.keyStore.location is not: a TLS port needs the server's certificate and key");
        }
        if ((sslQuorum || quorumPortUnification) && (quorumTls == null || quorumTls.keyStore() == null
                || quorumTls.trustStore() == null)) {
            throw new IllegalArgumentException((sslQuorum ? "sslQuorum" : "portUnification") + " is set but"
                    + " ssl.quorum.keyStore.location or ssl.quorum.trustStore.location is not: members prove"
                    + " themselves to each other with certificates, so each needs its own and the CA that signed"
                    + " the others'");
        }
    }

    /** Whether clients can reach this server over TLS at all. */
    public boolean clientTlsEnabled() {
        return secureClientPort > 0 || clientPortUnification;
    }

    /**
     * The settings under their key names, for {@code conf} and for a round trip through the
     * loader; only what differs from no security at all. Passwords are included: whoever prints
     * this hides the keys {@link #isSecretKey} names.
     */
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        if (secureClientPort > 0) {
            s.put("secureClientPort", Integer.toString(secureClientPort));
        }
        if (secureClientPortAddress != null) {
            s.put("secureClientPortAddress", secureClientPortAddress);
        }
        if (clientPortUnification) {
            s.put("client.portUnification", "true");
        }
        if (clientTls != null) {
            s.putAll(clientTls.settings());
        }
        if (!certReload) {
            s.put("client.certReload", "false");
        }
        s.putAll(x509.settings());
        if (sslQuorum) {
            s.put("sslQuorum", "true");
        }
        if (quorumPortUnification) {
            s.put("portUnification", "true");
        }
        if (quorumTls != null) {
            s.putAll(quorumTls.settings());
        }
        if (!quorumCertReload) {
            s.put("sslQuorumReloadCertFiles", "false");
        }
        s.putAll(sasl.settings());
        s.putAll(enforcement.settings());
        s.putAll(quorumSasl.settings());
        return s;
    }

    /** Keys whose values are never shown. */
    public static boolean isSecretKey(String key) {
        return key.toLowerCase(java.util.Locale.ROOT).endsWith("password");
    }
}
