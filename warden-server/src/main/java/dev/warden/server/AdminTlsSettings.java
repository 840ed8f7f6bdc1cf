package dev.warden.server;

import dev.warden.server.auth.X509IdRule;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * HTTPS on the AdminServer port, with the keys ZooKeeper 3.9's AdminServer reads:
 * {@code admin.forceHttps} (HTTPS only), {@code admin.portUnification} (HTTP and HTTPS on the
 * one port), {@code admin.needClientAuth} (a client certificate is required), the
 * {@code ssl.quorum.keyStore.*} store holding the server's certificate and key and the
 * {@code ssl.quorum.trustStore.*} store holding the authorities client certificates are checked
 * against (ZooKeeper's AdminServer takes its stores from the quorum TLS keys, not the client
 * port's {@code ssl.*}). A verified client certificate logs in to the console as the
 * {@code x509} identity {@link X509IdRule} picks ({@code ssl.clientCertIdType} and its SAN keys,
 * {@code X509AuthenticationProvider.superUser}).
 *
 * @param keyStore   the server's certificate and private key (needed for HTTPS)
 * @param trustStore the authorities a client certificate must chain to; none means no client
 *                   certificate is asked for
 */
public record AdminTlsSettings(boolean forceHttps, boolean portUnification, boolean needClientAuth, Store keyStore,
                               Store trustStore, X509IdRule idRule) {
    /** Plain HTTP, no stores, the subject DN as identity. */
    public static final AdminTlsSettings DEFAULTS = new AdminTlsSettings(false, false, false,
            Store.none("ssl.quorum.keyStore."), Store.none("ssl.quorum.trustStore."), X509IdRule.DEFAULT);

    /** Every key read here, as zoo.cfg spells it; each is also read with a leading "zookeeper.". */
    public static final List<String> KEYS = List.of("admin.forceHttps", "admin.portUnification",
            "admin.needClientAuth", "ssl.quorum.keyStore.location", "ssl.quorum.keyStore.password",
            "ssl.quorum.keyStore.passwordPath", "ssl.quorum.keyStore.type", "ssl.quorum.trustStore.location",
            "ssl.quorum.trustStore.password", "ssl.quorum.trustStore.passwordPath", "ssl.quorum.trustStore.type",
            "ssl.clientCertIdType", "ssl.clientCertIdSanMatchType", "ssl.clientCertIdSanMatchRegex",
            "ssl.clientCertIdSanExtractRegex", "ssl.clientCertIdSanExtractMatcherGroupIndex",
            "X509AuthenticationProvider.superUser");

    /**
     * A key or trust store.
     *
     * @param prefix       the keys' common prefix, for messages ("ssl.quorum.keyStore.")
     * @param location     the file, or null for none
     * @param password     its password, or null
     * @param passwordPath a file holding the password (it wins over password, as in ZooKeeper), or null
     * @param type         JKS, PKCS12 or PEM; null to go by the file's extension
     */
    public record Store(String prefix, Path location, String password, Path passwordPath, String type) {
        static Store none(String prefix) {
            return new Store(prefix, null, null, null, null);
        }

        /** The store's type: the type key, or else the file's extension (.jks, .p12/.pfx, .pem), as ZooKeeper guesses it. */
        public String effectiveType() {
            if (type != null) {
                return type;
            }
            String name = location == null ? "" : location.getFileName().toString().toLowerCase(Locale.ROOT);
            if (name.endsWith(".jks")) {
                return "JKS";
            }
            if (name.endsWith(".p12") || name.endsWith(".pfx")) {
                return "PKCS12";
            }
            if (name.endsWith(".pem")) {
                return "PEM";
            }
            throw new ConfigException(prefix + "type", "cannot tell the type of " + prefix + "location=" + location
                    + " from its name: set " + prefix + "type to JKS, PKCS12 or PEM");
        }

        Store with(String suffix, String value) {
            return switch (suffix) {
                case "location" -> new Store(prefix, path(prefix + suffix, value), password, passwordPath, type);
                case "password" -> new Store(prefix, location, value, passwordPath, type);
                case "passwordPath" -> new Store(prefix, location, password, path(prefix + suffix, value), type);
                case "type" -> new Store(prefix, location, password, passwordPath, storeType(prefix + suffix, value));
                default -> throw new IllegalArgumentException(prefix + suffix);
            };
        }

        /** Passwords never appear in logs or {@code conf}. */
        @Override
        public String toString() {
            return prefix + "location=" + location + (password != null || passwordPath != null ? " (with password)" : "");
        }
    }

    /** True when the port speaks HTTPS (alone, or beside HTTP). */
    public boolean httpsOn() {
        return forceHttps || portUnification;
    }

    /** These settings with {@code key} (one of {@link #KEYS}) set to {@code value}, as zoo.cfg gives it. */
    public AdminTlsSettings with(String key, String value) {
        return switch (key) {
            case "admin.forceHttps" -> new AdminTlsSettings(bool(key, value), portUnification, needClientAuth, keyStore,
                    trustStore, idRule);
            case "admin.portUnification" -> new AdminTlsSettings(forceHttps, bool(key, value), needClientAuth,
                    keyStore, trustStore, idRule);
            case "admin.needClientAuth" -> new AdminTlsSettings(forceHttps, portUnification, bool(key, value),
                    keyStore, trustStore, idRule);
            default -> {
                if (key.startsWith(keyStore.prefix())) {
                    yield new AdminTlsSettings(forceHttps, portUnification, needClientAuth,
                            keyStore.with(key.substring(keyStore.prefix().length()), value), trustStore, idRule);
                }
                if (key.startsWith(trustStore.prefix())) {
                    yield new AdminTlsSettings(forceHttps, portUnification, needClientAuth, keyStore,
                            trustStore.with(key.substring(trustStore.prefix().length()), value), idRule);
                }
                try {
                    yield new AdminTlsSettings(forceHttps, portUnification, needClientAuth, keyStore, trustStore,
                            idRule.with(key, value));
                } catch (IllegalArgumentException bad) {
                    throw new ConfigException(key, bad.getMessage(), bad);
                }
            }
        };
    }

    /**
     * The settings that cannot be checked one key at a time: HTTPS needs a key store that can be
     * read, and a required client certificate needs a trust store to check it against.
     */
    public void check() {
        try {
            idRule.check();
        } catch (IllegalArgumentException bad) {
            throw new ConfigException("ssl.clientCertIdSanExtractMatcherGroupIndex", bad.getMessage(), bad);
        }
        if (!httpsOn()) {
            if (needClientAuth) {
                throw new ConfigException("admin.needClientAuth", "admin.needClientAuth=true asks for client"
                        + " certificates, which only HTTPS carries: set admin.forceHttps=true (or"
                        + " admin.portUnification=true) with the ssl.quorum.keyStore.* keys, or remove it");
            }
            return;
        }
        String why = forceHttps ? "admin.forceHttps=true" : "admin.portUnification=true";
        if (keyStore.location() == null) {
            throw new ConfigException("ssl.quorum.keyStore.location", why + " serves HTTPS, which needs the"
                    + " server's certificate and key: set ssl.quorum.keyStore.location (and its password), as"
                    + " ZooKeeper's AdminServer reads them");
        }
        if (needClientAuth && trustStore.location() == null) {
            throw new ConfigException("ssl.quorum.trustStore.location", "admin.needClientAuth=true needs the"
                    + " authorities client certificates are checked against: set ssl.quorum.trustStore.location");
        }
        // the stores are read now, so a wrong file or password stops the server at start, naming the key
        dev.warden.server.admin.AdminTls.serverContext(this);
    }

    private static boolean bool(String key, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ConfigException.invalid(key, value, "must be true or false");
        };
    }

    private static Path path(String key, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Path.of(value.trim());
        } catch (java.nio.file.InvalidPathException bad) {
            throw ConfigException.invalid(key, value, "must be a file path");
        }
    }

    private static String storeType(String key, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String type = value.trim().toUpperCase(Locale.ROOT);
        if (!List.of("JKS", "PKCS12", "PEM").contains(type)) {
            throw ConfigException.invalid(key, value, "must be JKS, PKCS12 or PEM (BCFKS is not supported; convert"
                    + " the store with keytool -importkeystore)");
        }
        return type;
    }
}
