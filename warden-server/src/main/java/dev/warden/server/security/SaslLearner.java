package dev.warden.server.security;

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
 * The SASL client side of one JAAS section, as a member uses it to authenticate itself to the
 * members it dials ({@code quorum.auth.learner.saslLoginContext}, ZooKeeper's
 * {@code QuorumLearner}): a section whose options hold {@code username} and {@code password}
 * (ZooKeeper's DigestLoginModule) speaks DIGEST-MD5; a Krb5LoginModule section logs in from its
 * keytab at start and speaks GSSAPI, asking for a ticket to the member dialled as
 * {@code quorum.auth.kerberos.servicePrincipal}, where {@code _HOST} stands for the host of that
 * member's server line. Like {@link SaslServers} it reads the file itself, without the JVM-wide
 * JAAS setting.
 */
public final class SaslLearner {
    private static final String HOST_PLACEHOLDER = "_HOST";

    private final String section;
    private final String digestUser;
    private final String digestPassword;
    private final Subject kerberosSubject;
    private final String servicePrincipal;

    private SaslLearner(String section, String digestUser, String digestPassword, Subject kerberosSubject,
                        String servicePrincipal) {
        this.section = section;
        this.digestUser = digestUser;
        this.digestPassword = digestPassword;
        this.kerberosSubject = kerberosSubject;
        this.servicePrincipal = servicePrincipal;
    }

    /** Reads the section (and logs in for Kerberos); a missing or unusable section names the key and the file. */
    public static SaslLearner load(Path jaasFile, String section, String servicePrincipal) {
        Configuration jaas = SaslServers.jaas(jaasFile);
        AppConfigurationEntry[] entries = jaas.getAppConfigurationEntry(section);
        if (entries == null || entries.length == 0) {
            throw new IllegalArgumentException("quorum.auth.learner.saslLoginContext: the JAAS file " + jaasFile
                    + " has no '" + section + "' section, with which this member authenticates itself to the others"
                    + " (username and password for DIGEST-MD5, or a Kerberos keytab login)");
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
            Subject subject = SaslServers.login(jaas, section, jaasFile);
            if (subject.getPrincipals(KerberosPrincipal.class).isEmpty()) {
                throw new IllegalArgumentException("the Kerberos login of section '" + section + "' in " + jaasFile
                        + " gave no principal");
            }
            return new SaslLearner(section, null, null, subject, servicePrincipal);
        }
        if (user == null || password == null) {
            throw new IllegalArgumentException("quorum.auth.learner.saslLoginContext: the '" + section + "' section of "
                    + jaasFile + " has neither a Krb5LoginModule nor username and password options: this member"
                    + " could not authenticate itself to the others");
        }
        return new SaslLearner(section, user, password, null, servicePrincipal);
    }

    public String mechanism() {
        return kerberosSubject != null ? "GSSAPI" : "DIGEST-MD5";
    }

    /** The principal whose ticket is asked for when dialling {@code host}. */
    String servicePrincipalFor(String host) {
        return servicePrincipal.replace(HOST_PLACEHOLDER, host.toLowerCase(Locale.ROOT));
    }

    /** A SASL client for one connection to the member at {@code host}. */
    public SaslClient newClient(String host) throws SaslException {
        if (kerberosSubject == null) {
            return Sasl.createSaslClient(new String[] {"DIGEST-MD5"}, null, SaslServers.QUORUM_DIGEST_PROTOCOL,
                    SaslServers.QUORUM_DIGEST_SERVER_NAME, Map.of(Sasl.QOP, "auth"), this::handleDigest);
        }
        KerberosNames service = KerberosNames.parse(servicePrincipalFor(host));
        if (service.host() == null) {
            throw new SaslException("quorum.auth.kerberos.servicePrincipal=" + servicePrincipal + " has no host part:"
                    + " it looks like zkquorum/_HOST or zkquorum/host@REALM");
        }
        try {
            return Subject.doAs(kerberosSubject, (PrivilegedExceptionAction<SaslClient>) () ->
                    Sasl.createSaslClient(new String[] {"GSSAPI"}, null, service.service(), service.host(),
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

    @Override
    public String toString() {
        return mechanism() + " (JAAS section " + section + ")";
    }
}
