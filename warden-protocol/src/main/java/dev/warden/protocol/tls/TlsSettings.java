package dev.warden.protocol.tls;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One side's TLS settings under ZooKeeper's key names, relative to a prefix: {@code ssl.} for
 * the client port, {@code ssl.quorum.} for the connections between members. The same parser
 * serves the server's zoo.cfg and a client's properties, so both read the same keys.
 *
 * @param keyStore                   the certificate and key this side presents; null for none
 * @param trustStore                 the certificates this side trusts; null for the JDK's default CAs
 * @param protocol                   the SSLContext protocol ({@code ssl.protocol})
 * @param enabledProtocols           protocols offered; empty for the default set of {@code protocol}
 * @param cipherSuites               cipher suites offered; empty for the provider's defaults
 * @param clientAuth                 whether a server asks a client for a certificate
 * @param hostnameVerification       whether the peer's certificate must name the host dialled
 * @param clientHostnameVerification whether a server checks a client's certificate against the
 *                                   client's address too (members only; clients are not checked)
 * @param crl                        check certificate revocation lists (the certificates' distribution points)
 * @param ocsp                       check revocation with OCSP
 */
public record TlsSettings(String prefix, StoreFile keyStore, StoreFile trustStore, String protocol,
                          List<String> enabledProtocols, List<String> cipherSuites, ClientAuth clientAuth,
                          boolean hostnameVerification, boolean clientHostnameVerification, boolean crl,
                          boolean ocsp) {

    public static final String CLIENT_PREFIX = "ssl.";
    public static final String QUORUM_PREFIX = "ssl.quorum.";
    public static final String DEFAULT_PROTOCOL = "TLSv1.3";

    /** ZooKeeper's {@code ssl.clientAuth}. */
    public enum ClientAuth {
        NONE, WANT, NEED;

        static ClientAuth parse(String key, String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(key + "='" + text + "' is invalid: must be none, want or need");
            }
        }
    }

    public TlsSettings {
        enabledProtocols = List.copyOf(enabledProtocols);
        cipherSuites = List.copyOf(cipherSuites);
    }

    /** The relative key names this reads, after the prefix. */
    public static final List<String> KEYS = List.of("keyStore.location", "keyStore.password",
            "keyStore.passwordPath", "keyStore.type", "trustStore.location", "trustStore.password",
            "trustStore.passwordPath", "trustStore.type", "protocol", "enabledProtocols", "ciphersuites",
            "clientAuth", "hostnameVerification", "clientHostnameVerification", "crl", "ocsp");

    /**
     * Reads the settings under {@code prefix}. {@code lookup} gives the trimmed value of a full
     * key name, or null. Bad values throw {@link IllegalArgumentException} naming the key.
     */
    public static TlsSettings parse(String prefix, Function<String, String> lookup) {
        StoreFile keyStore = store(prefix + "keyStore", lookup);
        StoreFile trustStore = store(prefix + "trustStore", lookup);
        String protocol = valueOr(lookup, prefix + "protocol", DEFAULT_PROTOCOL);
        List<String> enabled = list(lookup.apply(prefix + "enabledProtocols"));
        if (enabled.isEmpty()) {
            // ZooKeeper offers TLSv1.2 beside TLSv1.3 unless told otherwise: older peers still connect
            enabled = protocol.equals("TLSv1.3") ? List.of("TLSv1.3", "TLSv1.2") : List.of(protocol);
        }
        List<String> ciphers = list(lookup.apply(prefix + "ciphersuites"));
        String clientAuthText = lookup.apply(prefix + "clientAuth");
        ClientAuth clientAuth = clientAuthText == null ? ClientAuth.NEED
                : ClientAuth.parse(prefix + "clientAuth", clientAuthText);
        boolean hostnames = bool(lookup, prefix + "hostnameVerification", true);
        boolean clientHostnames = bool(lookup, prefix + "clientHostnameVerification", hostnames) && hostnames;
        return new TlsSettings(prefix, keyStore, trustStore, protocol, enabled, ciphers, clientAuth, hostnames,
                clientHostnames, bool(lookup, prefix + "crl", false), bool(lookup, prefix + "ocsp", false));
    }

    /**
     * The settings under their full key names, passwords included (they are read back from
     * here); whoever prints them hides every key ending in {@code password}.
     */
    public java.util.Map<String, String> settings() {
        java.util.Map<String, String> s = new java.util.LinkedHashMap<>();
        for (StoreFile store : new StoreFile[] {keyStore, trustStore}) {
            if (store != null) {
                s.put(store.keyPrefix() + ".location", store.location().toString());
                if (!store.password().isEmpty()) {
                    s.put(store.keyPrefix() + ".password", store.password().reveal());
                }
                s.put(store.keyPrefix() + ".type", store.type().name());
            }
        }
        s.put(prefix + "protocol", protocol);
        s.put(prefix + "enabledProtocols", String.join(",", enabledProtocols));
        if (!cipherSuites.isEmpty()) {
            s.put(prefix + "ciphersuites", String.join(",", cipherSuites));
        }
        s.put(prefix + "clientAuth", clientAuth.name().toLowerCase(Locale.ROOT));
        s.put(prefix + "hostnameVerification", Boolean.toString(hostnameVerification));
        s.put(prefix + "clientHostnameVerification", Boolean.toString(clientHostnameVerification));
        s.put(prefix + "crl", Boolean.toString(crl));
        s.put(prefix + "ocsp", Boolean.toString(ocsp));
        return s;
    }

    private static StoreFile store(String keyPrefix, Function<String, String> lookup) {
        String location = lookup.apply(keyPrefix + ".location");
        String password = lookup.apply(keyPrefix + ".password");
        String passwordPath = lookup.apply(keyPrefix + ".passwordPath");
        String type = lookup.apply(keyPrefix + ".type");
        if (location == null || location.isEmpty()) {
            if (password != null || passwordPath != null) {
                throw new IllegalArgumentException(keyPrefix + ".password is set but " + keyPrefix
                        + ".location is not: name the store file, or remove the password");
            }
            return null;
        }
        Path path;
        try {
            path = Path.of(location);
        } catch (InvalidPathException bad) {
            throw new IllegalArgumentException(keyPrefix + ".location='" + location + "' is not a file path");
        }
        Secret secret = password != null ? Secret.of(password)
                : passwordPath != null ? Secret.fromFile(keyPrefix + ".passwordPath", Path.of(passwordPath))
                : Secret.NONE;
        StoreFile.StoreType storeType = type != null && !type.isEmpty()
                ? StoreFile.StoreType.parse(keyPrefix + ".type", type)
                : StoreFile.StoreType.fromFileName(keyPrefix + ".type", path);
        return new StoreFile(keyPrefix, path, secret, storeType);
    }

    private static String valueOr(Function<String, String> lookup, String key, String fallback) {
        String value = lookup.apply(key);
        return value == null || value.isEmpty() ? fallback : value;
    }

    static boolean bool(Function<String, String> lookup, String key, boolean fallback) {
        String value = lookup.apply(key);
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes" -> {
                return true;
            }
            case "false", "no" -> {
                return false;
            }
            default -> throw new IllegalArgumentException(key + "='" + value + "' is invalid: must be true/false or"
                    + " yes/no");
        }
    }

    private static List<String> list(String text) {
        List<String> items = new ArrayList<>();
        if (text != null) {
            for (String item : text.split(",")) {
                if (!item.isBlank()) {
                    items.add(item.trim());
                }
            }
        }
        return items;
    }
}
