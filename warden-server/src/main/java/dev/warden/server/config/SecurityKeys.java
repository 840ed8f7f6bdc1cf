package dev.warden.server.config;

import dev.warden.protocol.tls.TlsSettings;
import dev.warden.server.security.AuthEnforcement;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.SaslSettings;
import dev.warden.server.security.SecurityConfig;
import dev.warden.server.security.X509Identities;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads the security keys (docs/SECURITY.md) into a {@link SecurityConfig}. Each key may be
 * written in zoo.cfg as ZooKeeper spells it or with a {@code zookeeper.} prefix (the two must
 * agree), or be given as the JVM system property ZooKeeper deployments set in
 * {@code SERVER_JVMFLAGS} ({@code zookeeper.ssl.keyStore.location}, ...): the config loader
 * merges those into the keys it hands here, refusing a property that disagrees with the file.
 * {@code java.security.auth.login.config} comes from {@code systemProperties} when the file does
 * not name it.
 */
final class SecurityKeys {
    private static final String PREFIX = "zookeeper.";
    static final String JAAS_KEY = "java.security.auth.login.config";

    /** ZooKeeper's providers whose schemes Warden has built in. */
    private static final Set<String> BUILT_IN_PROVIDERS = Set.of(
            "org.apache.zookeeper.server.auth.DigestAuthenticationProvider",
            "org.apache.zookeeper.server.auth.IPAuthenticationProvider",
            "org.apache.zookeeper.server.auth.X509AuthenticationProvider",
            "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
    static final Set<String> KNOWN_SCHEMES = Set.of("digest", "ip", "sasl", "x509");

    /** How {@code StoreFile} asks for the type of a store whose file name does not tell it. */
    private static final java.util.regex.Pattern STORE_TYPE_KEY = java.util.regex.Pattern.compile(
            "^cannot tell the type of .* set (\\S+) to JKS");

    private SecurityKeys() {
    }

    /**
     * Reads the keys; every key it read, in either spelling, goes in {@code recognised}.
     * {@code systemProperties} gives a JVM system property's value or null.
     */
    static SecurityConfig apply(Properties file, Set<String> recognised, Function<String, String> systemProperties) {
        Lookup lookup = new Lookup(file, recognised, systemProperties);
        try {
            return read(lookup, file);
        } catch (IllegalArgumentException bad) {
            throw new ConfigException(firstWord(bad.getMessage()), bad.getMessage(), bad);
        }
    }

    /**
     * The {@code ssl.quorum.*} settings the AdminServer's HTTPS serves with, read as for
     * {@code sslQuorum}; every key it read goes in {@code recognised}.
     */
    static TlsSettings adminStores(Properties file, Set<String> recognised) {
        try {
            return TlsSettings.parse(TlsSettings.QUORUM_PREFIX, new Lookup(file, recognised, name -> null));
        } catch (IllegalArgumentException bad) {
            throw new ConfigException(firstWord(bad.getMessage()), bad.getMessage(), bad);
        }
    }

    private static SecurityConfig read(Lookup lookup, Properties file) {
        int securePort = integer(lookup, "secureClientPort");
        String secureAddress = lookup.apply("secureClientPortAddress");
        boolean unification = bool(lookup, "client.portUnification", false);
        boolean certReload = bool(lookup, "client.certReload", true);
        TlsSettings clientTls = securePort > 0 || unification
                ? TlsSettings.parse(TlsSettings.CLIENT_PREFIX, lookup) : null;
        lookup.markAll(TlsSettings.CLIENT_PREFIX, TlsSettings.KEYS);
        lookup.apply("ssl.authProvider"); // ZooKeeper's name for the x509 provider; x509 is built in
        X509Identities x509 = X509Identities.parse(lookup);

        // The quorum TLS and SASL details are read only with the switch that uses them (refused
        // below for now); otherwise they stay unread, and the config loader warns that they do nothing.
        boolean sslQuorum = bool(lookup, "sslQuorum", false);
        boolean quorumUnification = bool(lookup, "portUnification", false);
        boolean quorumTlsOn = sslQuorum || quorumUnification;
        boolean quorumReload = !quorumTlsOn || bool(lookup, "sslQuorumReloadCertFiles", true);
        TlsSettings quorumTls = quorumTlsOn ? TlsSettings.parse(TlsSettings.QUORUM_PREFIX, lookup) : null;

        checkAuthProviders(lookup, file);
        String jaas = lookup.apply(JAAS_KEY);
        SaslSettings sasl = new SaslSettings(jaas == null || jaas.isEmpty() ? null : Path.of(jaas),
                orDefault(lookup.apply("sasl.serverconfig"), SaslSettings.DEFAULT_SECTION),
                bool(lookup, "kerberos.removeHostFromPrincipal", false),
                bool(lookup, "kerberos.removeRealmFromPrincipal", false),
                emptyToNull(lookup.apply("superUser")), bool(lookup, "allowSaslFailedClients", false));

        AuthEnforcement enforcement = enforcement(lookup, sasl);
        boolean quorumSaslOn = bool(lookup, "quorum.auth.enableSasl", false);
        boolean learnerRequire = bool(lookup, "quorum.auth.learnerRequireSasl", false);
        boolean serverRequire = bool(lookup, "quorum.auth.serverRequireSasl", false);
        if ((learnerRequire || serverRequire) && !quorumSaslOn) {
            throw new IllegalArgumentException((learnerRequire ? "quorum.auth.learnerRequireSasl"
                    : "quorum.auth.serverRequireSasl") + "=true needs quorum.auth.enableSasl=true");
        }
        Function<String, String> quorumSaslKey = key -> quorumSaslOn ? lookup.apply(key) : null;
        QuorumSaslSettings quorumSasl = new QuorumSaslSettings(quorumSaslOn, learnerRequire, serverRequire,
                orDefault(quorumSaslKey.apply("quorum.auth.kerberos.servicePrincipal"),
                        QuorumSaslSettings.DEFAULT_PRINCIPAL),
                orDefault(quorumSaslKey.apply("quorum.auth.learner.saslLoginContext"), "QuorumLearner"),
                orDefault(quorumSaslKey.apply("quorum.auth.server.saslLoginContext"), "QuorumServer"));
        if (quorumSaslOn && !sasl.configured()) {
            throw new IllegalArgumentException("quorum.auth.enableSasl=true needs a JAAS file with the "
                    + quorumSasl.learnerLoginContext() + " and " + quorumSasl.serverLoginContext()
                    + " sections: set java.security.auth.login.config (in zoo.cfg or as a JVM system property)");
        }
        quorumAuthThreads(lookup);
        return new SecurityConfig(securePort, secureAddress, unification, clientTls, certReload, x509, sslQuorum,
                quorumUnification, quorumTls, quorumReload, sasl, enforcement, quorumSasl);
    }

    /**
     * ZooKeeper's pool for members' SASL handshakes. Warden runs every member's SASL steps on one
     * thread of the transport's own (a handshake is a few milliseconds of work, and members dial
     * each other a handful of times), so the size is checked and otherwise has no effect.
     */
    private static void quorumAuthThreads(Lookup lookup) {
        String text = lookup.apply("quorum.cnxn.threads.size");
        if (text == null || text.isEmpty()) {
            return;
        }
        try {
            if (Integer.parseInt(text) > 0) {
                return;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException("quorum.cnxn.threads.size='" + text + "' is invalid: must be a positive"
                + " number of threads");
    }

    private static AuthEnforcement enforcement(Lookup lookup, SaslSettings sasl) {
        boolean enabled = bool(lookup, "enforce.auth.enabled", false);
        String schemesText = lookup.apply("enforce.auth.schemes");
        boolean requireSasl = bool(lookup, "sessionRequireClientSASLAuth", false);
        Set<String> schemes = new TreeSet<>();
        if (schemesText != null) {
            for (String scheme : schemesText.split(",")) {
                String s = scheme.trim();
                if (s.isEmpty()) {
                    continue;
                }
                if (!KNOWN_SCHEMES.contains(s)) {
                    throw new IllegalArgumentException("enforce.auth.schemes names '" + s + "', which is not a scheme"
                            + " Warden authenticates: use " + new TreeSet<>(KNOWN_SCHEMES));
                }
                schemes.add(s);
            }
        }
        if (enabled && schemes.isEmpty()) {
            throw new IllegalArgumentException("enforce.auth.enabled=true needs enforce.auth.schemes, the schemes of"
                    + " which a client must hold an identity (e.g. sasl, or x509)");
        }
        if ((requireSasl || schemes.contains("sasl") && enabled) && !sasl.configured()) {
            throw new IllegalArgumentException((requireSasl ? "sessionRequireClientSASLAuth" : "enforce.auth.schemes")
                    + " requires SASL, but no JAAS file is configured: set java.security.auth.login.config (in"
                    + " zoo.cfg or as a JVM system property) to a file with a " + sasl.serverSection() + " section");
        }
        return new AuthEnforcement(enabled, schemes, requireSasl);
    }

    /** authProvider.N lines naming ZooKeeper's own providers are accepted: their schemes are built in. */
    private static void checkAuthProviders(Lookup lookup, Properties file) {
        for (String key : new TreeSet<>(file.stringPropertyNames())) {
            String bare = key.startsWith(PREFIX) ? key.substring(PREFIX.length()) : key;
            if (!bare.startsWith("authProvider.")) {
                continue;
            }
            String className = lookup.apply(bare);
            if (!BUILT_IN_PROVIDERS.contains(className)) {
                throw new IllegalArgumentException(key + "=" + className + ": Warden cannot load authentication"
                        + " providers; it has ZooKeeper's digest, ip, sasl and x509 schemes built in (their"
                        + " providers may be named here). Remove the line if no client or ACL uses that scheme.");
            }
        }
    }

    private static int integer(Lookup lookup, String key) {
        String text = lookup.apply(key);
        if (text == null || text.isEmpty()) {
            return 0;
        }
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException(key + "='" + text + "' is invalid: must be a port from 1 to 65535, or 0"
                + " for none");
    }

    private static boolean bool(Lookup lookup, String key, boolean fallback) {
        String value = lookup.apply(key);
        if (value == null || value.isEmpty()) {
            return fallback;
        }
        return ConfigLoader.asBoolean(key, value);
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /** The key a message names: its first word, or the type key it asks to set for a store of unknown type. */
    private static String firstWord(String message) {
        if (message == null) {
            return null;
        }
        java.util.regex.Matcher typeKey = STORE_TYPE_KEY.matcher(message);
        if (typeKey.find()) {
            return typeKey.group(1);
        }
        int end = 0;
        while (end < message.length() && !Character.isWhitespace(message.charAt(end)) && message.charAt(end) != '='
                && message.charAt(end) != ':') {
            end++;
        }
        return message.substring(0, end);
    }

    /** A key's value from the file, in either spelling, else from a system property. */
    /** The keys of SASL between members, which ZooKeeper reads only from zoo.cfg, never as properties. */
    static boolean isFileOnly(String key) {
        return key.startsWith("quorum.auth.") || key.equals("quorum.cnxn.threads.size");
    }

    private static final class Lookup implements Function<String, String> {
        private final Properties file;
        private final Set<String> recognised;
        private final Function<String, String> systemProperties;

        Lookup(Properties file, Set<String> recognised, Function<String, String> systemProperties) {
            this.file = file;
            this.recognised = recognised;
            this.systemProperties = systemProperties;
        }

        @Override
        public String apply(String key) {
            String plain = file.getProperty(key);
            String prefixed = key.startsWith("java.") ? null : file.getProperty(PREFIX + key);
            if (plain != null) {
                recognised.add(key);
            }
            if (prefixed != null) {
                recognised.add(PREFIX + key);
            }
            if (plain != null && prefixed != null && !plain.trim().equals(prefixed.trim())) {
                throw new IllegalArgumentException(key + ": both " + key + " and " + PREFIX + key + " are set, to"
                        + " different values: they are the same setting, keep one");
            }
            String value = plain != null ? plain : prefixed;
            if (value == null) {
                value = systemProperties.apply(key.startsWith("java.") ? key : PREFIX + key);
            }
            return value == null ? null : value.trim();
        }

        /** Marks a family of keys as read even where they were not needed. */
        void markAll(String prefix, List<String> relativeKeys) {
            for (String relative : relativeKeys) {
                apply(prefix + relative);
            }
        }
    }
}
