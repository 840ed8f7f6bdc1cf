package dev.warden.protocol.tls;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A key store or trust store file as ZooKeeper's {@code *.location}, {@code *.password},
 * {@code *.passwordPath} and {@code *.type} keys describe it.
 *
 * @param keyPrefix the keys' common prefix ({@code ssl.keyStore}), for error messages
 * @param type      JKS, PKCS12 or PEM; from the file name's extension when not configured
 */
public record StoreFile(String keyPrefix, Path location, Secret password, StoreType type) {

    public enum StoreType {
        JKS, PKCS12, PEM;

        static StoreType parse(String key, String text) {
            switch (text.trim().toUpperCase(Locale.ROOT)) {
                case "JKS" -> {
                    return JKS;
                }
                case "PKCS12", "P12", "PFX" -> {
                    return PKCS12;
                }
                case "PEM" -> {
                    return PEM;
                }
                default -> throw new IllegalArgumentException(key + "='" + text + "' is invalid: must be JKS, PKCS12"
                        + " or PEM");
            }
        }

        /** ZooKeeper's rule: a store without a configured type is known by its file name. */
        static StoreType fromFileName(String typeKey, Path location) {
            String name = location.getFileName() == null ? "" : location.getFileName().toString()
                    .toLowerCase(Locale.ROOT);
            if (name.endsWith(".jks")) {
                return JKS;
            }
            if (name.endsWith(".p12") || name.endsWith(".pfx") || name.endsWith(".pkcs12")) {
                return PKCS12;
            }
            if (name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".cer")) {
                return PEM;
            }
            throw new IllegalArgumentException("cannot tell the type of " + location + " from its name: set "
                    + typeKey + " to JKS, PKCS12 or PEM");
        }
    }

    @Override
    public String toString() {
        return keyPrefix + " " + location + " (" + type + ")";
    }
}
