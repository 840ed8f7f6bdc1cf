package dev.warden.server.console;

import dev.warden.protocol.Id;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.security.X509Identities;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.auth.Digests;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Who is logged in to the console: a random token (the browser keeps it in an HttpOnly cookie)
 * for each login, holding the identities a ZooKeeper client would have after
 * {@code addauth digest user:password} from the browser's address (and super when the
 * credentials match {@code superDigest}), or that a TLS client presenting the browser's
 * certificate would have ({@code x509}). A login unused for {@link #IDLE_LIMIT_MS} is forgotten.
 */
final class ConsoleLogins {
    static final long IDLE_LIMIT_MS = 30 * 60_000;
    /** Logins kept at once; the oldest idle ones go first when it is reached. */
    static final int MAX_LOGINS = 1_000;

    /**
     * A logged-in user: how it logged in ("digest" or "x509"), the digest user name or the
     * certificate's x509 identity, whether it is the super user, its identities.
     */
    record Login(String scheme, String user, boolean superUser, AuthIdentities identities) {
    }

    private record Entry(Login login, long lastUsedMs) {
    }

    private final ServerConfig config;
    private final LongSupplier nowMs;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Entry> byToken = new ConcurrentHashMap<>();

    ConsoleLogins(ServerConfig config, LongSupplier nowMs) {
        this.config = config;
        this.nowMs = nowMs;
    }

    /** The identities of {@code user:password} from {@code address}, as the client port would give them. */
    Login identify(String user, String password, String address) {
        AuthIdentities identities = new AuthIdentities(address);
        if (config.skipAcl()) {
            identities.skipAclChecks();
        }
        String id = Digests.idFor(user + ":" + password);
        identities.add(new Id("digest", id));
        boolean superUser = id.equals(config.superDigest());
        if (superUser) {
            identities.add(new Id(AuthIdentities.SUPER_SCHEME, ""));
        }
        return new Login("digest", user, superUser, identities);
    }

    /**
     * The identities of a client certificate whose x509 identity is {@code x509Id}, from
     * {@code address}: those the client port gives a TLS client with that certificate, super
     * too when it is {@code X509AuthenticationProvider.superUser}.
     */
    Login identifyCertificate(String x509Id, String address) {
        AuthIdentities identities = new AuthIdentities(address);
        if (config.skipAcl()) {
            identities.skipAclChecks();
        }
        identities.add(new Id(X509Identities.SCHEME, x509Id));
        boolean superUser = config.security().x509().isSuper(x509Id);
        if (superUser) {
            identities.add(new Id(AuthIdentities.SUPER_SCHEME, x509Id));
        }
        return new Login(X509Identities.SCHEME, x509Id, superUser, identities);
    }

    /** Remembers the login; returns its token. */
    String start(Login login) {
        long now = nowMs.getAsLong();
        byToken.values().removeIf(e -> now - e.lastUsedMs() > IDLE_LIMIT_MS);
        if (byToken.size() >= MAX_LOGINS) {
            byToken.entrySet().stream().min(Map.Entry.comparingByValue(
                    java.util.Comparator.comparingLong(Entry::lastUsedMs))).ifPresent(e -> byToken.remove(e.getKey()));
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        byToken.put(token, new Entry(login, now));
        return token;
    }

    /** The login of a token still valid, marking it used. */
    Optional<Login> find(String token) {
        if (token == null) {
            return Optional.empty();
        }
        Entry entry = byToken.get(token);
        long now = nowMs.getAsLong();
        if (entry == null || now - entry.lastUsedMs() > IDLE_LIMIT_MS) {
            byToken.remove(token);
            return Optional.empty();
        }
        byToken.put(token, new Entry(entry.login(), now));
        return Optional.of(entry.login());
    }

    void end(String token) {
        if (token != null) {
            byToken.remove(token);
        }
    }
}
