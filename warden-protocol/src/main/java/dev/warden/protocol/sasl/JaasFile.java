package dev.warden.protocol.sasl;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.security.URIParameter;
import javax.security.auth.Subject;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.auth.login.LoginException;

/**
 * A JAAS file read on its own, without the JVM-wide {@code java.security.auth.login.config}
 * setting, so that servers and clients in one JVM may each use their own file.
 */
public final class JaasFile {
    private JaasFile() {
    }

    /** Parses the file; an unreadable or malformed one names the file and the key. */
    public static Configuration read(Path jaasFile) {
        if (!Files.isReadable(jaasFile)) {
            throw new IllegalArgumentException("java.security.auth.login.config: cannot read the JAAS file "
                    + jaasFile);
        }
        URI uri = jaasFile.toUri();
        try {
            return Configuration.getInstance("JavaLoginConfig", new URIParameter(uri));
        } catch (NoSuchAlgorithmException | SecurityException e) {
            throw new IllegalArgumentException("java.security.auth.login.config: cannot parse the JAAS file "
                    + jaasFile + ": " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        }
    }

    /** Logs in with a section (a Kerberos keytab login); nobody is asked for a password. */
    public static Subject login(Configuration jaas, String section, Path jaasFile) {
        try {
            Subject subject = new Subject();
            LoginContext login = new LoginContext(section, subject, callbacks -> {
                throw new UnsupportedCallbackException(callbacks[0], "the login is from a keytab only");
            }, jaas);
            login.login();
            return subject;
        } catch (LoginException e) {
            throw new IllegalArgumentException("the login of JAAS section '" + section + "' in " + jaasFile
                    + " failed: " + e.getMessage() + " (check its keyTab and principal)", e);
        }
    }
}
