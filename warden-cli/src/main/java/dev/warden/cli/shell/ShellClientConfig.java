package dev.warden.cli.shell;

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
 * makes the certificate the session's x509 identity); other client keys, such as
 * {@code zookeeper.clientCnxnSocket}, mean nothing to Warden's client and are passed over, as
 * the Apache client passes over keys it does not know.
 *
 * @param tls null for a plaintext connection
 * @param saslNotice why a JAAS setting the Apache client would act on is not acted on here, or null
 */
record ShellClientConfig(TlsSettings tls, String saslNotice) {
    static final String FLAG = "-client-configuration";
    static final String SECURE_KEY = "zookeeper.client.secure";
    static final String TLS_PREFIX = "zookeeper.ssl.";
    static final String JAAS_KEY = "java.security.auth.login.config";
    static final String SASL_CLIENT_KEY = "zookeeper.sasl.client";

    static final ShellClientConfig PLAINTEXT = new ShellClientConfig(null, null);

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
        String saslNotice = jaas != null && !jaas.isEmpty() && !"false".equalsIgnoreCase(lookup.apply(SASL_CLIENT_KEY))
                ? "Warden's shell does not authenticate with SASL: " + JAAS_KEY + " is not used, and the session"
                        + " holds no sasl identity (authenticate with a client certificate, zookeeper.client.secure=true"
                        + " and zookeeper.ssl.keyStore.location, or with addauth digest)"
                : null;
        return new ShellClientConfig(tls, saslNotice);
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
