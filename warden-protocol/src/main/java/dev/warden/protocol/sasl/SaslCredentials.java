package dev.warden.protocol.sasl;

import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;

/**
 * The SASL client side of one JAAS section: who a party authenticates as when it connects. A
 * section whose options hold {@code username} and {@code password} (ZooKeeper's
 * DigestLoginModule) speaks DIGEST-MD5; a Krb5LoginModule section logs in from its keytab when
 * loaded and speaks GSSAPI, asking for a ticket to {@code servicePrincipal}, where {@code _HOST}
 * stands for the host dialled. Used by clients (ZooKeeper's {@code Client} section) and by
 * members dialling each other ({@code QuorumLearner}); each passes the DIGEST-MD5 protocol and
 * server name its servers expect.
 */
public final class SaslCredentials {
    /** What the Apache client and server agree on for DIGEST-MD5 on the client port. */
    public static final String CLIENT_DIGEST_PROTOCOL = "zookeeper";
    public static final String CLIENT_DIGEST_SERVER_NAME = "zk-sasl-md5";
    /** The Apache client's default server principal: {@code zookeeper} at the host dialled. */
    public static final String CLIENT_SERVICE_PRINCIPAL = "zookeeper/_HOST";
    private static final String HOST_PLACEHOLDER = "_HOST";

    private final String section;
    private final String digestUser;
    private final String digestPassword;
    private final Subject kerberosSubject;
    private final String servicePrincipal;
    private final String digestProtocol;
    private final String digestServerName;

    private SaslCredentials(String section, String digestUser, String digestPassword, Subject kerberosSubject,
                            String servicePrincipal, String digestProtocol, String digestServerName) {
        this.section = section;
        this.digestUser = digestUser;
        this.digestPassword = digestPassword;
        this.kerberosSubject = kerberosSubject;
        this.servicePrincipal = servicePrincipal;
        this.digestProtocol = digestProtocol;
        this.digestServerName = digestServerName;
    }

    /** A client's credentials, as the Apache client finds them: its JAAS section and service principal. */
    public static SaslCredentials forClient(Path jaasFile, String section, String servicePrincipal) {
        return load(jaasFile, section, "zookeeper.sasl.clientconfig", CLIENT_DIGEST_PROTOCOL,
                CLIENT_DIGEST_SERVER_NAME, servicePrincipal);
    }

    /**
     * Reads the section (and logs in for Kerberos). A missing or unusable section throws
     * {@link IllegalArgumentException} naming {@code sectionKey} (the key that chose the section)
     * and the file.
     */
    public static SaslCredentials load(Path jaasFile, String section, String sectionKey, String digestProtocol,
                                       String digestServerName, String servicePrincipal) {
        Configuration jaas = JaasFile.read(jaasFile);
        AppConfigurationEntry[] entries = jaas.getAppConfigurationEntry(section);
        if (entries == null || entries.length == 0) {
            throw new IllegalArgumentException(sectionKey + ": the JAAS file " + jaasFile + " has no '" + section
                    + "' section to authenticate with (username and password for DIGEST-MD5, or a Kerberos keytab"
                    + " login)");
        }
        boolean kerberos = false;
        String user = null;
        String password = null;
        for (AppConfigurationEntry entry : entries) {
            kerberos |= entry.getLoginModuleName().endsWith("Krb5LoginModule");
            Object u = entry.getOptions().get("username");
            Object p = entry.getOptions().get("password");
            user = u != null ? String.valueOf(u) : user;
            password = p != null ? String.valueOf(p) : password;
        }
        if (kerberos) {
            Subject subject = JaasFile.login(jaas, section, jaasFile);
            if (subject.getPrincipals(KerberosPrincipal.class).isEmpty()) {
                throw new IllegalArgumentException("the Kerberos login of section '" + section + "' in " + jaasFile
                        + " gave no principal");
            }
            return new SaslCredentials(section, null, null, subject, servicePrincipal, digestProtocol,
                    digestServerName);
        }
        if (user == null || password == null) {
            throw new IllegalArgumentException(sectionKey + ": the '" + section + "' section of " + jaasFile
                    + " has neither a Krb5LoginModule nor username and password options: nothing to authenticate"
                    + " with");
        }
        return new SaslCredentials(section, user, password, null, servicePrincipal, digestProtocol,
                digestServerName);
    }

    public String mechanism() {
        return kerberosSubject != null ? "GSSAPI" : "DIGEST-MD5";
    }

    /** The principal whose ticket is asked for when dialling {@code host}. */
    public String servicePrincipalFor(String host) {
        return servicePrincipal.replace(HOST_PLACEHOLDER, host.toLowerCase(Locale.ROOT));
    }

    /** A SASL client for one connection to {@code host}. */
    public SaslClient newClient(String host) throws SaslException {
        if (kerberosSubject == null) {
            return Sasl.createSaslClient(new String[] {"DIGEST-MD5"}, null, digestProtocol, digestServerName,
                    Map.of(Sasl.QOP, "auth"), this::handleDigest);
        }
        String principal = servicePrincipalFor(host);
        int slash = principal.indexOf('/');
        int at = principal.indexOf('@');
        String service = slash < 0 ? null : principal.substring(0, slash);
        String serviceHost = slash < 0 ? null : principal.substring(slash + 1, at > slash ? at : principal.length());
        if (service == null || service.isEmpty() || serviceHost.isEmpty()) {
            throw new SaslException("the service principal " + servicePrincipal + " has no host part: it looks like"
                    + " service/_HOST or service/host@REALM");
        }
        try {
            return Subject.doAs(kerberosSubject, (PrivilegedExceptionAction<SaslClient>) () ->
                    Sasl.createSaslClient(new String[] {"GSSAPI"}, null, service, serviceHost,
                            Map.of(Sasl.QOP, "auth"), null));
        } catch (PrivilegedActionException e) {
            throw e.getException() instanceof SaslException sasl ? sasl
                    : new SaslException("cannot start GSSAPI", e.getException());
        }
    }

    /** The client's first token: its initial response if the mechanism has one, else empty. */
    public byte[] firstToken(SaslClient client) throws SaslException {
        return client.hasInitialResponse() ? evaluate(client, new byte[0]) : new byte[0];
    }

    /** Answers a challenge, with the Kerberos credentials where the mechanism needs them. */
    public byte[] evaluate(SaslClient client, byte[] challenge) throws SaslException {
        if (kerberosSubject == null) {
            return client.evaluateChallenge(challenge);
        }
        try {
            return Subject.doAs(kerberosSubject, (PrivilegedExceptionAction<byte[]>) () ->
                    client.evaluateChallenge(challenge));
        } catch (PrivilegedActionException e) {
            throw e.getException() instanceof SaslException sasl ? sasl
                    : new SaslException("GSSAPI step failed", e.getException());
        }
    }

    private void handleDigest(Callback[] callbacks) throws UnsupportedCallbackException {
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                name.setName(digestUser);
            } else if (callback instanceof PasswordCallback password) {
                password.setPassword(digestPassword.toCharArray());
            } else if (callback instanceof RealmCallback realm) {
                realm.setText(realm.getDefaultText());
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    /** Names the mechanism and section, never the password. */
    @Override
    public String toString() {
        return mechanism() + " (JAAS section " + section + ")";
    }
}
