package dev.warden.server.security;

import dev.warden.server.FreePorts;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;

/**
 * One Kerberos KDC (Apache Kerby's SimpleKdcServer) for every test of this JVM that needs one,
 * started on first use in a temporary directory and left running until the JVM ends. One, because
 * the JDK reads {@code java.security.krb5.conf} once per JVM: a second KDC on another port would
 * never be asked. Each test makes its own principals and keytabs.
 */
public final class TestKdc {
    public static final String REALM = "WARDEN.TEST";
    private static SimpleKdcServer kdc;
    private static Path dir;

    private TestKdc() {
    }

    /** The running KDC; {@code java.security.krb5.conf} names it. */
    public static synchronized SimpleKdcServer get() {
        if (kdc == null) {
            try {
                dir = Files.createTempDirectory("warden-test-kdc");
                dir.toFile().deleteOnExit();
                SimpleKdcServer server = new SimpleKdcServer();
                server.setWorkDir(dir.toFile());
                server.setKdcRealm(REALM);
                server.setKdcHost("localhost");
                server.setAllowUdp(false);
                server.setKdcTcpPort(FreePorts.pick());
                server.init();
                server.start();
                System.setProperty("java.security.krb5.conf", dir.resolve("krb5.conf").toString());
                kdc = server;
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test KDC", e);
            }
        }
        return kdc;
    }

    /** Creates {@code principal} (without realm) with a random key and writes its keytab. */
    public static Path keytab(Path keytabDir, String principal) {
        SimpleKdcServer server = get();
        File keytab = keytabDir.resolve(principal.replaceAll("[^A-Za-z0-9]", "_") + ".keytab").toFile();
        try {
            server.createAndExportPrincipals(keytab, principal);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the principal " + principal, e);
        }
        return keytab.toPath();
    }

    /** A JAAS section logging in as {@code principal} (with realm) from {@code keytab}. */
    public static String section(String name, Path keytab, String principal) {
        return name + " {\n  com.sun.security.auth.module.Krb5LoginModule required\n  useKeyTab=true\n  keyTab=\""
                + keytab + "\"\n  storeKey=true\n  useTicketCache=false\n  principal=\"" + principal + "\";\n};\n";
    }
}
