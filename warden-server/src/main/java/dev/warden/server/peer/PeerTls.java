package dev.warden.server.peer;

import dev.warden.protocol.tls.CertificateNames;
import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.net.TlsSniffer;
import dev.warden.server.security.NettyTls;
import dev.warden.server.security.ReloadingSslContext;
import dev.warden.server.security.SecurityConfig;
import io.netty.channel.Channel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * TLS between members, as ZooKeeper's {@code sslQuorum} and {@code portUnification} set it:
 * a member dials the others over TLS when {@code sslQuorum} is on, and its peer and election
 * ports take TLS only ({@code sslQuorum}), plaintext only (neither), or both, told apart by the
 * first byte of each connection ({@code portUnification}). The last is the middle of a rolling
 * switch: members that already dial with TLS and members that do not yet both get in.
 *
 * <p>Certificates come from the {@code ssl.quorum.*} stores; each member presents its own and
 * checks the other's against the trust store, and, with {@code ssl.quorum.hostnameVerification}
 * (the default), the dialling member checks that the certificate names the host of the server
 * line it dialled, and the accepting member that the certificate names the address the
 * connection comes from or the host of the server line of the member it says it is.
 */
final class PeerTls {
    /** What the peer and election ports accept. */
    enum Accept { PLAINTEXT, TLS, UNIFIED }

    static final PeerTls NONE = new PeerTls(Accept.PLAINTEXT, null, null, false);
    /** How often a new connection may look at the store files for changes. */
    static final long RELOAD_CHECK_INTERVAL_MS = 1_000;

    private final Accept accept;
    /** The context of accepted TLS connections; null when the ports take plaintext only. */
    private final ReloadingSslContext acceptContext;
    /** The context of dialled connections; null when this member dials in plaintext. */
    private final ReloadingSslContext dialContext;
    private final boolean checkDiallerHosts;

    private PeerTls(Accept accept, ReloadingSslContext acceptContext, ReloadingSslContext dialContext,
                    boolean checkDiallerHosts) {
        this.accept = accept;
        this.acceptContext = acceptContext;
        this.dialContext = dialContext;
        this.checkDiallerHosts = checkDiallerHosts;
    }

    /**
     * The members' TLS from the server's security settings. Reads the stores now, so a bad
     * store or password stops the member before it takes part in anything; the error names the
     * {@code ssl.quorum.} key.
     */
    static PeerTls of(SecurityConfig security) {
        if (!security.sslQuorum() && !security.quorumPortUnification()) {
            return NONE;
        }
        TlsSettings settings = security.quorumTls();
        ReloadingSslContext accepted = new ReloadingSslContext(settings, NettyTls::forServer,
                security.quorumCertReload(), RELOAD_CHECK_INTERVAL_MS, () -> System.nanoTime() / 1_000_000);
        ReloadingSslContext dialled = security.sslQuorum()
                ? new ReloadingSslContext(settings, NettyTls::forClient, security.quorumCertReload(),
                        RELOAD_CHECK_INTERVAL_MS, () -> System.nanoTime() / 1_000_000)
                : null;
        Accept accept = security.quorumPortUnification() ? Accept.UNIFIED : Accept.TLS;
        return new PeerTls(accept, accepted, dialled, settings.clientHostnameVerification());
    }

    Accept accept() {
        return accept;
    }

    /** How the ports take connections, for the line that says they listen. */
    String describeAccept() {
        return switch (accept()) {
            case PLAINTEXT -> "plaintext";
            case TLS -> "TLS only, engine " + dev.warden.server.security.NettyTls.engine();
            case UNIFIED -> "TLS and plaintext, engine " + dev.warden.server.security.NettyTls.engine();
        };
    }

    boolean dialsTls() {
        return dialContext != null;
    }

    /** Adds what an accepted connection needs in front of the frame decoder: TLS, or the sniffer. */
    void installAccepted(SocketChannel channel) {
        switch (accept) {
            case TLS -> channel.pipeline().addLast(TlsSniffer.SSL_HANDLER,
                    acceptContext.current().newHandler(channel.alloc()));
            case UNIFIED -> channel.pipeline().addLast(new TlsSniffer(acceptContext));
            case PLAINTEXT -> {
                // frames straight from the socket
            }
        }
    }

    /**
     * Adds TLS to a connection this member dials, naming the host of the member's server line
     * so that host name verification checks the certificate against it.
     */
    void installDialled(SocketChannel channel, InetSocketAddress address) {
        if (dialContext != null) {
            channel.pipeline().addLast(TlsSniffer.SSL_HANDLER,
                    dialContext.current().newHandler(channel.alloc(), address.getHostString(), address.getPort()));
        }
    }

    /**
     * Why an accepted TLS connection from member {@code claimed} must not be taken, or null: with
     * host name verification on, its certificate must name the address it connects from or the
     * host of that member's server line. Plaintext connections (on a unified port) pass: they
     * prove nothing either way.
     */
    String diallerCertificateProblem(Channel channel, QuorumMember claimed) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null || !checkDiallerHosts) {
            return null;
        }
        X509Certificate certificate;
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            certificate = (X509Certificate) chain[0];
        } catch (SSLPeerUnverifiedException | ClassCastException | ArrayIndexOutOfBoundsException none) {
            return null; // ssl.quorum.clientAuth=none or want, and no certificate: nothing to check
        }
        String address = channel.remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null
                ? remote.getAddress().getHostAddress() : null;
        if (CertificateNames.names(certificate, address)) {
            return null;
        }
        List<String> hosts = new ArrayList<>();
        for (QuorumMember.PeerAddress line : claimed.addresses()) { // one per network with multiAddress.enabled
            if (CertificateNames.names(certificate, line.host())) {
                return null;
            }
            hosts.add(line.host());
        }
        return "its certificate (" + certificate.getSubjectX500Principal().getName() + ") names neither the address "
                + address + " it connects from nor " + String.join(" or ", hosts) + " of server." + claimed.id()
                + " (ssl.quorum.hostnameVerification)";
    }
}
