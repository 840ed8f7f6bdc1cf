package dev.warden.cli.shell;

import dev.warden.protocol.sasl.JaasFile;
import dev.warden.protocol.sasl.SaslCredentials;
import dev.warden.protocol.tls.TlsManagers;
import dev.warden.protocol.tls.TlsSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.Function;

/**
 * How the shell's client connects, in the Apache client's own keys, read as zkCli reads them:
 * from the file given with {@code -client-configuration}, then from JVM system properties
 * ({@code CLIENT_JVMFLAGS}, {@code WARDEN_JAVA_OPTS}); the file wins. {@code
 * zookeeper.client.secure=true} turns TLS on with the {@code zookeeper.ssl.*} keys (a key store
 * makes the certificate the session's x509 identity). A JAAS file ({@code
 * java.security.auth.login.config}) with a {@code Client} section ({@code
 * zookeeper.sasl.clientconfig}) turns SASL on unless {@code zookeeper.sasl.client=false}:
 * DIGEST-MD5 or Kerberos, asking for a ticket to {@code zookeeper.server.principal}, by default
 * {@code zookeeper.sasl.client.username} (zookeeper) at the host dialled, in {@code
 * zookeeper.server.realm} if set. Other client keys, such as {@code zookeeper.clientCnxnSocket},
 * mean nothing to Warden's client and are passed over, as the Apache client passes over keys it
 * does not know.
 *
 * @param tls    null for a plaintext connection
 * @param sasl   null for no SASL
 * @param notice what the shell tells the user about a setting it does not act on, or null
 */
record ShellClientConfig(TlsSettings tls, SaslCredentials sasl, String notice) {
    static final String FLAG = "-client-configuration";
    static final String SECURE_KEY = "zookeeper.client.secure";
    static final String TLS_PREFIX = "zookeeper.ssl.";
    static final String JAAS_KEY = "java.security.auth.login.config";
    static final String SASL_CLIENT_KEY = "zookeeper.sasl.client";
    static final String SASL_SECTION_KEY = "zookeeper.sasl.clientconfig";
    static final String SERVER_PRINCIPAL_KEY = "zookeeper.server.principal";
    static final String SERVICE_NAME_KEY = "zookeeper.sasl.client.username";
    static final String SERVER_REALM_KEY = "zookeeper.server.realm";
    static final String DEFAULT_SECTION = "Client";

    static final ShellClientConfig PLAINTEXT = new ShellClientConfig(null, null, null);

    /**
     * Reads {@code file} (null: none) and the system properties. A missing or unreadable file, or
     * a bad TLS value, throws {@link IllegalArgumentException} naming the file or key.
     */
    static ShellClientConfig load(Path file, Function<String, String> systemProperties) {
        Properties fromFile = file == null ? new Properties() : read(file);
        Function<String, String> lookup = key -> {
            String value = fromFile.getProperty(key);
            if (value == null) {
                value = systemProperties.apply(key);
            }
            return value == null ? null : value.trim();
        };
        TlsSettings tls = Boolean.parseBoolean(lookup.apply(SECURE_KEY)) ? parseTls(lookup, file) : null;
        String jaas = lookup.apply(JAAS_KEY);
        if (jaas == null || jaas.isEmpty() || "false".equalsIgnoreCase(lookup.apply(SASL_CLIENT_KEY))) {
            return new ShellClientConfig(tls, null, null);
        }
        return sasl(tls, Path.of(jaas), lookup);
    }

    /**
     * As the Apache client: a JAAS file without the default section means no SASL (said, not
     * silent); a section named explicitly must be there.
     */
    private static ShellClientConfig sasl(TlsSettings tls, Path jaas, Function<String, String> lookup) {
        String named = lookup.apply(SASL_SECTION_KEY);
        String section = named == null || named.isEmpty() ? DEFAULT_SECTION : named;
        if (named == null && JaasFile.read(jaas).getAppConfigurationEntry(section) == null) {
            return new ShellClientConfig(tls, null, "No SASL: the JAAS file " + jaas + " (" + JAAS_KEY + ") has no '"
                    + section + "' section; the session is not authenticated with SASL");
        }
        String principal = lookup.apply(SERVER_PRINCIPAL_KEY);
        if (principal == null || principal.isEmpty()) {
            String service = lookup.apply(SERVICE_NAME_KEY);
            String realm = lookup.apply(SERVER_REALM_KEY);
            principal = (service == null || service.isEmpty() ? "zookeeper" : service) + "/_HOST"
                    + (realm == null || realm.isEmpty() ? "" : "@" + realm);
        }
        return new ShellClientConfig(tls, SaslCredentials.load(jaas, section, SASL_SECTION_KEY,
                SaslCredentials.CLIENT_DIGEST_PROTOCOL, SaslCredentials.CLIENT_DIGEST_SERVER_NAME, principal), null);
    }

    /** Parses the TLS keys and reads the stores once, so a bad store or password is named before connecting. */
    private static TlsSettings parseTls(Function<String, String> lookup, Path file) {
        try {
            TlsSettings tls = TlsSettings.parse(TLS_PREFIX, lookup);
            TlsManagers.keyManagers(tls);
            TlsManagers.trustManager(tls);
            return tls;
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException((file == null ? "" : file + ": ") + bad.getMessage(), bad);
        }
    }

    private static Properties read(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException missing) {
            throw new IllegalArgumentException(FLAG + " " + file + ": no such file");
        } catch (IOException | IllegalArgumentException unreadable) {
            throw new IllegalArgumentException(FLAG + " " + file + " cannot be read: " + unreadable.getMessage());
        }
        return properties;
    }
}
