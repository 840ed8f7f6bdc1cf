package dev.warden.bench.load;

import java.util.Map;

/**
 * How the load client reaches a server: in plaintext (no properties), or over TLS with the Apache
 * client's own properties ({@code zookeeper.client.secure=true}, the Netty socket, the
 * {@code zookeeper.ssl.*} stores). Warden's client reads the same {@code zookeeper.ssl.*} keys.
 *
 * @param zookeeperProperties client properties by their ZooKeeper names; empty for plaintext
 */
public record LoadClientTls(Map<String, String> zookeeperProperties) {
    public static final LoadClientTls NONE = new LoadClientTls(Map.of());
    /** The Apache client's switch for TLS, and the prefix of its store keys. */
    static final String SECURE_KEY = "zookeeper.client.secure";
    static final String SSL_PREFIX = "zookeeper.ssl.";

    public LoadClientTls {
        zookeeperProperties = Map.copyOf(zookeeperProperties);
        if (!zookeeperProperties.isEmpty() && !"true".equals(zookeeperProperties.get(SECURE_KEY))) {
            throw new IllegalArgumentException("TLS client properties need " + SECURE_KEY + "=true");
        }
    }

    public boolean enabled() {
        return !zookeeperProperties.isEmpty();
    }

    @Override
    public String toString() {
        return enabled() ? "TLS" : "plaintext"; // never the store passwords
    }
}
