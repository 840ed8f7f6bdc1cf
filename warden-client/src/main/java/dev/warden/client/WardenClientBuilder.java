package dev.warden.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** Settings for a new client; {@link #build()} starts connecting in the background. */
public final class WardenClientBuilder {
    private String connectString;
    private Duration sessionTimeout = Duration.ofSeconds(30);
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Executor executor;
    private RetryPolicy retryPolicy = RetryPolicy.upTo(5, 60_000);
    private int maxOutstandingRequests = 1000;
    private int maxQueuedRequests = -1;
    private int maxFrameBytes = 0xfffff;
    private long shuffleSeed = System.nanoTime();
    private boolean shuffleHosts = true;
    private HostProvider hostProvider;
    private final List<StateListener> listeners = new ArrayList<>();
    private dev.warden.protocol.tls.TlsSettings tls;
    private dev.warden.protocol.sasl.SaslCredentials sasl;
    private boolean followConfiguration;
    private boolean canBeReadOnly;

    WardenClientBuilder() {
    }

    /** {@code host1:port1,host2:port2/optional/chroot}; hosts are tried in a shuffled order. */
    public WardenClientBuilder connectString(String value) {
        this.connectString = value;
        return this;
    }

    /** Requested session timeout; the server clamps it into its own bounds. Default 30 s. */
    public WardenClientBuilder sessionTimeout(Duration value) {
        this.sessionTimeout = value;
        return this;
    }

    /** Time allowed for the TCP connect plus handshake with one host. Default 5 s. */
    public WardenClientBuilder connectTimeout(Duration value) {
        this.connectTimeout = value;
        return this;
    }

    /**
     * Where completions, watch events and state changes run (serialized, one at a time,
     * whatever the executor). Default: one daemon thread per client. Pass
     * {@code Runnable::run} to run them on the I/O thread, if callbacks never block.
     */
    public WardenClientBuilder executor(Executor value) {
        this.executor = value;
        return this;
    }

    /** Retries of idempotent operations on connection loss. Default: up to 5 times within 60 s. */
    public WardenClientBuilder retryPolicy(RetryPolicy value) {
        this.retryPolicy = value;
        return this;
    }

    /** Requests on the wire at once; more wait in the client's queue. Default 1000. */
    public WardenClientBuilder maxOutstandingRequests(int value) {
        this.maxOutstandingRequests = value;
        return this;
    }

    /** Hard cap on queued plus in-flight requests; beyond it calls fail at once. Default 10 x outstanding. */
    public WardenClientBuilder maxQueuedRequests(int value) {
        this.maxQueuedRequests = value;
        return this;
    }

    /** Largest frame sent or accepted, in bytes (like jute.maxbuffer). Default 1,048,575. */
    public WardenClientBuilder maxFrameBytes(int value) {
        this.maxFrameBytes = value;
        return this;
    }

    /** Seed for shuffling the host list (tests use it for reproducible host order). */
    public WardenClientBuilder shuffleSeed(long value) {
        this.shuffleSeed = value;
        return this;
    }

    /**
     * Tries the hosts in the connect string's order instead of a shuffled one: the first host is
     * the session's home, the others its fail-over order. For placing sessions deliberately, as a
     * benchmark does to load every member alike.
     */
    public WardenClientBuilder hostsInGivenOrder() {
        this.shuffleHosts = false;
        return this;
    }

    /**
     * Chooses servers with this provider instead of the default {@link StaticHostProvider} over
     * the connect string's hosts (whose chroot still applies). The connect string is still
     * required, for the chroot.
     */
    public WardenClientBuilder hostProvider(HostProvider value) {
        this.hostProvider = value;
        return this;
    }

    /**
     * Connects over TLS with these settings (ZooKeeper's {@code zookeeper.ssl.*} client keys:
     * read them with {@code TlsSettings.parse("zookeeper.ssl.", properties::getProperty)}): the
     * trust store the server's certificate must chain to, the key store whose certificate the
     * server may ask for, and whether the certificate must name the host dialled. Null (the
     * default) connects in plaintext.
     */
    public WardenClientBuilder tls(dev.warden.protocol.tls.TlsSettings value) {
        this.tls = value;
        return this;
    }

    /**
     * Authenticates every connection with SASL before any request goes out, as the Apache
     * client does with a JAAS {@code Client} section: DIGEST-MD5 from its {@code username} and
     * {@code password}, or GSSAPI (Kerberos) from its keytab. Read them with {@code
     * SaslCredentials.forClient(jaasFile, "Client", SaslCredentials.CLIENT_SERVICE_PRINCIPAL)}.
     * The session then holds the {@code sasl} identity the server gives it; a refused exchange
     * ends the client with {@link ConnectionState#AUTH_FAILED}. Null (the default): no SASL.
     */
    public WardenClientBuilder sasl(dev.warden.protocol.sasl.SaslCredentials value) {
        this.sasl = value;
        return this;
    }

    /**
     * Keeps the server list to the ensemble's configuration ({@code /zookeeper/config}, which a
     * {@code reconfig} changes): the client reads it once its session starts and after every
     * change, and updates its server list as {@link WardenClient#updateServerList} does, so a
     * share of the clients moves to members that joined and every client of a member that left
     * moves. The connect string then only needs to reach one member. Members whose
     * configuration line has no client address are left out. Off by default, as in ZooKeeper's
     * own client; use it with the default host provider.
     */
    public WardenClientBuilder followConfiguration() {
        this.followConfiguration = true;
        return this;
    }

    /**
     * Lets the client take a read-only session (Apache's {@code canBeReadOnly}) from a member
     * that is cut off from its quorum and runs with {@code readonlymode.enabled}: reads work,
     * writes fail with {@link WardenException.NotReadOnlyException}, and listeners are told
     * {@link ConnectionState#CONNECTED_READ_ONLY}. Meanwhile the client asks the other servers
     * ({@code isro}, at growing intervals up to a minute) for one that serves read-write, and
     * moves there once one answers; so does it when its member finds its quorum again.
     */
    public WardenClientBuilder canBeReadOnly() {
        this.canBeReadOnly = true;
        return this;
    }

    /** A state listener registered before connecting, so it also sees the first CONNECTED. */
    public WardenClientBuilder stateListener(StateListener listener) {
        listeners.add(listener);
        return this;
    }

    /** Builds the client and starts connecting; requests made meanwhile wait for the session. */
    public WardenClient build() {
        if (connectString == null) {
            throw new IllegalArgumentException("connectString is required");
        }
        int queued = maxQueuedRequests > 0 ? maxQueuedRequests : (int) Math.min(Integer.MAX_VALUE, 10L * maxOutstandingRequests);
        ClientConfig config = new ClientConfig(ConnectString.parse(connectString), Math.toIntExact(sessionTimeout.toMillis()),
                Math.toIntExact(connectTimeout.toMillis()), executor, retryPolicy, maxOutstandingRequests, queued,
                maxFrameBytes, shuffleSeed, shuffleHosts, hostProvider, tls, sasl, canBeReadOnly);
        WardenClient client = ClientRuntime.start(config, listeners);
        if (followConfiguration) {
            ConfigFollower.follow(client);
        }
        return client;
    }

    /**
     * Builds the client and completes once its session is established. Fails (and closes the
     * client) if no server grants a session within the session timeout.
     */
    public CompletableFuture<WardenClient> connect() {
        WardenClient client = build();
        return client.firstConnect().thenApply(ignored -> client);
    }
}
