package dev.warden.server.config;

import dev.warden.protocol.tls.TlsManagers;
import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.security.NettyTls;
import java.util.List;

/**
 * HTTPS on the AdminServer port, with the keys ZooKeeper 3.9's AdminServer reads:
 * {@code admin.forceHttps} (HTTPS only), {@code admin.portUnification} (HTTP and HTTPS on the
 * one port) and {@code admin.needClientAuth} (a client certificate is required). The certificate,
 * key and trusted authorities are the members' {@code ssl.quorum.*} stores (ZooKeeper's
 * AdminServer takes them from the quorum TLS keys, not the client port's {@code ssl.*}), read
 * by the same code as for {@code sslQuorum} and only while HTTPS is on. A verified client
 * certificate logs in to the console as the {@code x509} identity the server's
 * {@link dev.warden.server.security.X509Identities} give it, as on the client port.
 *
 * @param stores the {@code ssl.quorum.*} settings; null while HTTPS is off
 */
public record AdminTlsSettings(boolean forceHttps, boolean portUnification, boolean needClientAuth,
                               TlsSettings stores) {
    /** Plain HTTP. */
    public static final AdminTlsSettings DEFAULTS = new AdminTlsSettings(false, false, false, null);

    /** The AdminServer's own keys, as zoo.cfg spells them; each is also read with a leading "zookeeper.". */
    public static final List<String> KEYS = List.of("admin.forceHttps", "admin.portUnification",
            "admin.needClientAuth");

    /** True when the port speaks HTTPS (alone, or beside HTTP). */
    public boolean httpsOn() {
        return forceHttps || portUnification;
    }

    /** These settings with {@code key} (one of {@link #KEYS}) set to {@code value}, as zoo.cfg gives it. */
    public AdminTlsSettings with(String key, String value) {
        boolean on = ConfigLoader.asBoolean(key, value.trim());
        return switch (key) {
            case "admin.forceHttps" -> new AdminTlsSettings(on, portUnification, needClientAuth, stores);
            case "admin.portUnification" -> new AdminTlsSettings(forceHttps, on, needClientAuth, stores);
            case "admin.needClientAuth" -> new AdminTlsSettings(forceHttps, portUnification, on, stores);
            default -> throw new IllegalArgumentException("not an AdminServer HTTPS key: " + key);
        };
    }

    public AdminTlsSettings withStores(TlsSettings v) {
        return new AdminTlsSettings(forceHttps, portUnification, needClientAuth, v);
    }

    /**
     * The stores as the admin port serves them. With a trust store a client certificate is asked
     * for, and required only with {@code admin.needClientAuth} (ZooKeeper asks only then), so a
     * browser holding one may log in to the console with it and others still reach the page;
     * {@code ssl.quorum.clientAuth} is the members' setting and not read here.
     */
    public TlsSettings serverSettings() {
        TlsSettings.ClientAuth clientAuth = needClientAuth ? TlsSettings.ClientAuth.NEED
                : stores.trustStore() != null ? TlsSettings.ClientAuth.WANT : TlsSettings.ClientAuth.NONE;
        return new TlsSettings(stores.prefix(), stores.keyStore(), stores.trustStore(), stores.protocol(),
                stores.enabledProtocols(), stores.cipherSuites(), clientAuth, stores.hostnameVerification(),
                stores.clientHostnameVerification(), stores.crl(), stores.ocsp());
    }

    /**
     * The settings that cannot be checked one key at a time: HTTPS needs a key store that can be
     * read, and a required client certificate needs a trust store to check it against.
     */
    public void check() {
        if (!httpsOn()) {
            if (needClientAuth) {
                throw new ConfigException("admin.needClientAuth", "admin.needClientAuth=true asks for client"
                        + " certificates, which only HTTPS carries: set admin.forceHttps=true (or"
                        + " admin.portUnification=true) with the ssl.quorum.keyStore.* keys, or remove it");
            }
            return;
        }
        String why = forceHttps ? "admin.forceHttps=true" : "admin.portUnification=true";
        if (stores == null || stores.keyStore() == null) {
            throw new ConfigException("ssl.quorum.keyStore.location", why + " serves HTTPS, which needs the"
                    + " server's certificate and key: set ssl.quorum.keyStore.location (and its password), as"
                    + " ZooKeeper's AdminServer reads them");
        }
        if (needClientAuth && stores.trustStore() == null) {
            throw new ConfigException("ssl.quorum.trustStore.location", "admin.needClientAuth=true needs the"
                    + " authorities client certificates are checked against: set ssl.quorum.trustStore.location");
        }
        // the stores are read now, so a wrong file or password stops the server at start, naming the key
        TlsSettings settings = serverSettings();
        String failing = "ssl.quorum.keyStore.location";
        try {
            TlsManagers.keyManagers(settings);
            failing = "ssl.quorum.trustStore.location";
            TlsManagers.trustManager(settings);
            failing = "ssl.quorum.keyStore.location";
            NettyTls.forServer(settings);
        } catch (IllegalArgumentException bad) {
            throw new ConfigException(failing, "cannot serve HTTPS on the AdminServer port (" + why + "): "
                    + bad.getMessage(), bad);
        }
    }
}
