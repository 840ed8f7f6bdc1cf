package dev.warden.server.security;


import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the SASL servers of one JAAS section, as ZooKeeper's server does: a section whose
 * login gives a Kerberos principal (Krb5LoginModule with a keytab) serves GSSAPI as that
 * principal; a section of {@code user_NAME="password"} options (ZooKeeper's DigestLoginModule)
 * serves DIGEST-MD5 to those users. The JAAS file is read by this server alone (not through
 * the JVM-wide {@code java.security.auth.login.config}), so servers in one JVM can differ.
 */
public final class SaslServers {
    private static final Logger LOG = LoggerFactory.getLogger(SaslServers.class);
    /** The protocol and server name ZooKeeper's clients use for DIGEST-MD5. */
    static final String DIGEST_PROTOCOL = "zookeeper";
    static final String DIGEST_SERVER_NAME = "zk-sasl-md5";
    /** The protocol and server name of DIGEST-MD5 between members, as ZooKeeper names them. */
    public static final String QUORUM_DIGEST_PROTOCOL = "zookeeper-quorum";
    public static final String QUORUM_DIGEST_SERVER_NAME = "zk-quorum-sasl-md5";
    private static final String USER_PREFIX = "user_";

    private final String section;
    private final Map<String, String> digestUsers;
    private final Subject kerberosSubject;
    private final KerberosNames kerberosService;
    private final boolean removeHost;
    private final boolean removeRealm;
    private final String digestProtocol;
    private final String digestServerName;
    /** Hosts a Kerberos principal with a host part must name to be authorized; null: any. */
    private final Set<String> authorizedHosts;

    private SaslServers(String section, Map<String, String> digestUsers, Subject kerberosSubject,
                        KerberosNames kerberosService, boolean removeHost, boolean removeRealm,
                        String digestProtocol, String digestServerName, Set<String> authorizedHosts) {
        this.section = section;
        this.digestUsers = digestUsers;
        this.kerberosSubject = kerberosSubject;
        this.kerberosService = kerberosService;
        this.removeHost = removeHost;
        this.removeRealm = removeRealm;
        this.digestProtocol = digestProtocol;
        this.digestServerName = digestServerName;
        this.authorizedHosts = authorizedHosts;
    }

    /** Reads the section and, for Kerberos, logs in with its keytab; a bad file or login names the section. */
    public static SaslServers load(java.nio.file.Path jaasFile, String section, boolean removeHost,
                                   boolean removeRealm) {
        return load(jaasFile, section, removeHost, removeRealm, DIGEST_PROTOCOL, DIGEST_SERVER_NAME, null);
    }

    /**
     * The SASL servers a member authenticates the members dialling it with ({@code
     * quorum.auth.server.saslLoginContext}): DIGEST-MD5 under ZooKeeper's quorum names, and for
     * Kerberos, as ZooKeeper does, only principals whose host part is one of the members' hosts
     * ({@code memberHosts}) are authorized.
     */
    public static SaslServers forMembers(java.nio.file.Path jaasFile, String section, Set<String> memberHosts) {
        return load(jaasFile, section, false, false, QUORUM_DIGEST_PROTOCOL, QUORUM_DIGEST_SERVER_NAME,
                Set.copyOf(memberHosts));
    }

    private static SaslServers load(java.nio.file.Path jaasFile, String section, boolean removeHost,
                                    boolean removeRealm, String digestProtocol, String digestServerName,
                                    Set<String> authorizedHosts) {
        Configuration jaas = jaas(jaasFile);
        AppConfigurationEntry[] entries = jaas.getAppConfigurationEntry(section);
        if (entries == null || entries.length == 0) {
            throw new IllegalArgumentException("the JAAS file " + jaasFile + " has no '" + section + "' section:"
                    + " add one (DIGEST-MD5 users or a Kerberos keytab login), or name yours with sasl.serverconfig");
        }
        Map<String, String> users = new HashMap<>();
        boolean kerberos = false;
        for (AppConfigurationEntry entry : entries) {
            if (entry.getLoginModuleName().endsWith("Krb5LoginModule")) {
                kerberos = true;
            }
            entry.getOptions().forEach((key, value) -> {
                if (key.startsWith(USER_PREFIX)) {
                    users.put(key.substring(USER_PREFIX.length()), String.valueOf(value));
                }
            });
        }
        if (!kerberos) {
            if (users.isEmpty()) {
                throw new IllegalArgumentException("the '" + section + "' section of " + jaasFile + " has neither a"
                        + " Krb5LoginModule nor user_NAME=\"password\" entries: no client could authenticate");
            }
            return new SaslServers(section, Map.copyOf(users), null, null, removeHost, removeRealm, digestProtocol,
                    digestServerName, authorizedHosts);
        }
        Subject subject = login(jaas, section, jaasFile);
        KerberosPrincipal principal = subject.getPrincipals(KerberosPrincipal.class).stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the Kerberos login of section '" + section + "' in "
                        + jaasFile + " gave no principal"));
        KerberosNames names = KerberosNames.parse(principal.getName());
        if (names.host() == null) {
            throw new IllegalArgumentException("the principal " + principal.getName() + " of section '" + section
                    + "' has no host part: a service principal looks like zookeeper/host@REALM");
        }
        LOG.info("SASL: serving GSSAPI as {} (JAAS section {})", principal.getName(), section);
        return new SaslServers(section, Map.of(), subject, names, removeHost, removeRealm, digestProtocol,
                digestServerName, authorizedHosts);
    }

    /** Loads a JAAS file without touching the JVM-wide configuration. */
    public static Configuration jaas(java.nio.file.Path jaasFile) {
        return dev.warden.protocol.sasl.JaasFile.read(jaasFile);
    }

    /** Logs in with a section of a JAAS configuration (a Kerberos keytab login). */
    public static Subject login(Configuration jaas, String section, java.nio.file.Path jaasFile) {
        return dev.warden.protocol.sasl.JaasFile.login(jaas, section, jaasFile);
    }

    public String mechanism() {
        return kerberosSubject != null ? "GSSAPI" : "DIGEST-MD5";
    }

    /** A SASL server for one connection's exchange. */
    public SaslServer newServer() throws SaslException {
        if (kerberosSubject == null) {
            return Sasl.createSaslServer("DIGEST-MD5", digestProtocol, digestServerName,
                    Map.of(Sasl.QOP, "auth"), this::handleDigest);
        }
        try {
            return Subject.doAs(kerberosSubject, (PrivilegedExceptionAction<SaslServer>) () ->
                    Sasl.createSaslServer("GSSAPI", kerberosService.service(), kerberosService.host(),
                            Map.of(Sasl.QOP, "auth"), this::handleKerberos));
        } catch (PrivilegedActionException e) {
            throw e.getException() instanceof SaslException sasl ? sasl
                    : new SaslException("cannot start GSSAPI", e.getException());
        }
    }

    /** Runs a step of a GSSAPI exchange with the server's Kerberos credentials. */
    public byte[] evaluate(SaslServer server, byte[] token) throws SaslException {
        if (kerberosSubject == null) {
            return server.evaluateResponse(token);
        }
        try {
            return Subject.doAs(kerberosSubject, (PrivilegedExceptionAction<byte[]>) () ->
                    server.evaluateResponse(token));
        } catch (PrivilegedActionException e) {
            throw e.getException() instanceof SaslException sasl ? sasl
                    : new SaslException("GSSAPI step failed", e.getException());
        }
    }

    private void handleDigest(Callback[] callbacks) throws UnsupportedCallbackException {
        String user = null;
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                user = name.getDefaultName();
            } else if (callback instanceof PasswordCallback password) {
                String known = user == null ? null : digestUsers.get(user);
                if (known != null) {
                    password.setPassword(known.toCharArray());
                } else {
                    // an unknown user gets no password: the digest it sent cannot match
                    LOG.debug("SASL DIGEST-MD5: unknown user {}", user);
                }
            } else if (callback instanceof RealmCallback realm) {
                realm.setText(realm.getDefaultText());
            } else if (callback instanceof AuthorizeCallback authorize) {
                authorize.setAuthorized(authorize.getAuthenticationID().equals(authorize.getAuthorizationID()));
                authorize.setAuthorizedID(authorize.getAuthorizationID());
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    private void handleKerberos(Callback[] callbacks) throws UnsupportedCallbackException {
        for (Callback callback : callbacks) {
            if (callback instanceof AuthorizeCallback authorize) {
                String authenticated = authorize.getAuthenticationID();
                KerberosNames names = KerberosNames.parse(authenticated);
                boolean hostKnown = authorizedHosts == null || names.host() == null
                        || authorizedHosts.contains(names.host());
                if (!hostKnown) {
                    // the refusal itself is logged, rate limited, by the port; this says why
                    LOG.debug("SASL GSSAPI: {} is not authorized: its host is none of the members' {}", authenticated,
                            authorizedHosts);
                }
                authorize.setAuthorized(authenticated.equals(authorize.getAuthorizationID()) && hostKnown);
                authorize.setAuthorizedID(names.identity(removeHost, removeRealm));
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    @Override
    public String toString() {
        return mechanism() + " (JAAS section " + section + ")";
    }

}
