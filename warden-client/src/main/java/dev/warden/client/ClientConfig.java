package dev.warden.client;

import java.util.concurrent.Executor;

/** The validated settings of one client (see {@link WardenClientBuilder} for their meaning). */
record ClientConfig(ConnectString connectString, int sessionTimeoutMs, int connectTimeoutMs, Executor executor,
                    RetryPolicy retryPolicy, int maxOutstandingRequests, int maxQueuedRequests, int maxFrameBytes,
                    long shuffleSeed, boolean shuffleHosts, HostProvider hostProvider,
                    dev.warden.protocol.tls.TlsSettings tls, dev.warden.protocol.sasl.SaslCredentials sasl,
                    boolean canBeReadOnly) {
    ClientConfig {
        require(sessionTimeoutMs > 0, "sessionTimeout must be positive");
        require(connectTimeoutMs > 0, "connectTimeout must be positive");
        require(maxOutstandingRequests > 0, "maxOutstandingRequests must be positive");
        require(maxQueuedRequests >= maxOutstandingRequests, "maxQueuedRequests must be >= maxOutstandingRequests");
        require(maxFrameBytes >= 1024, "maxFrameBytes must be at least 1024");
        if (retryPolicy == null) {
            throw new IllegalArgumentException("retryPolicy must not be null");
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
