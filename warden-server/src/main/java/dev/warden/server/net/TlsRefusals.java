package dev.warden.server.net;

import java.net.SocketAddress;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the TLS connections a client port refuses, with the client's address and the reason
 * (plaintext on a TLS port, an expired, untrusted or revoked certificate, ...). Anyone who can
 * reach the port can cause these, so they are rate limited as the peer ports' refusals are.
 */
final class TlsRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(TlsRefusals.class);
    private static final RefusalLog REFUSALS = RefusalLog.standard();

    private TlsRefusals() {
    }

    static void notTls(SocketAddress remote) {
        REFUSALS.refused(LOG, "Refusing the client connection from " + remote + " on a TLS port: it did not start"
                + " a TLS handshake (a plaintext client on secureClientPort?)");
    }

    static void handshakeFailed(SocketAddress remote, Throwable cause) {
        REFUSALS.refused(LOG, "Refusing the client connection from " + remote + ": TLS handshake failed: "
                + reason(cause));
    }

    static boolean isHandshakeFailure(Throwable cause) {
        return cause instanceof SSLException || cause.getCause() instanceof SSLException;
    }

    /** The innermost message: "PKIX path validation failed: ... revoked", "certificate expired on ...". */
    private static String reason(Throwable cause) {
        Throwable innermost = cause;
        StringBuilder reasons = new StringBuilder(String.valueOf(cause.getMessage()));
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
            if (innermost.getMessage() != null && !reasons.toString().contains(innermost.getMessage())) {
                reasons.append(": ").append(innermost.getMessage());
            }
        }
        return reasons.toString();
    }
}
