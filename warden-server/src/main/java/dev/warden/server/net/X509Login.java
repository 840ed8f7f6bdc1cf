package dev.warden.server.net;

import dev.warden.protocol.Id;
import dev.warden.server.security.X509Identities;
import dev.warden.state.auth.AuthIdentities;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns the certificate a TLS client presented (already verified by the trust manager) into identities. */
final class X509Login {
    private static final Logger LOG = LoggerFactory.getLogger(X509Login.class);

    private X509Login() {
    }

    static void identify(SSLSession session, X509Identities rules, AuthIdentities identities, SocketAddress remote) {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException noCertificate) {
            return; // ssl.clientAuth=want or none, and the client sent none: no x509 identity
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
            return;
        }
        Optional<String> id = rules.idOf(certificate);
        if (id.isEmpty()) {
            LOG.info("TLS client {} presented {}, which yields no x509 identity under ssl.clientCertIdType",
                    remote, certificate.getSubjectX500Principal().getName());
            return;
        }
        identities.add(new Id(X509Identities.SCHEME, id.get()));
        if (rules.isSuper(id.get())) {
            identities.add(new Id(AuthIdentities.SUPER_SCHEME, id.get()));
            LOG.info("TLS client {} authenticated as x509:{}, the super user", remote, id.get());
        } else {
            LOG.debug("TLS client {} authenticated as x509:{}", remote, id.get());
        }
    }
}
