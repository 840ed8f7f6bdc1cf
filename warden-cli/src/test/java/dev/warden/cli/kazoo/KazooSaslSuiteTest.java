package dev.warden.cli.kazoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.FreePorts;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kazoo's own SASL tests, DIGEST-MD5 and GSSAPI (Debian's python3-kazoo ships them, run by pytest) against
 * Warden instead of ZooKeeper. kazoo's test harness starts its server as {@code java -cp
 * $ZOOKEEPER_CLASSPATH ... org.apache.zookeeper.server.quorum.QuorumPeerMain zoo.cfg}, with a
 * JAAS file of its own ({@code user_jaasuser="jaas_password"}); here that class, compiled at test
 * time, starts {@code warden server --config zoo.cfg}, on a class path without ZooKeeper's jar.
 * The harness is told ZooKeeper 3.4.14, so it does not ask for {@code reconfigEnabled=true}
 * (Warden refuses it); 3.4 answered every four-letter word, and the launcher allows them
 * ({@code 4lw.commands.whitelist=*}) because kazoo asks for {@code envi} to learn the version.
 * Skipped, saying so, where python3-kazoo, python3-pure-sasl or python3-pytest is missing.
 */
class KazooSaslSuiteTest {
    private static final String PYTHON = "/usr/bin/python3";
    private static final Path SUITE = Path.of("/usr/lib/python3/dist-packages/kazoo/tests/test_sasl.py");
    private static final long TIMEOUT_S = 240;
    private static final String KAZOO_REALM = "KAZOOTEST.ORG";

    private static final String LAUNCHER = """
            package org.apache.zookeeper.server.quorum;

            /** Stands in for ZooKeeper's main class in kazoo's test harness: runs Warden on the same zoo.cfg. */
            public final class QuorumPeerMain {
                public static void main(String[] args) throws Exception {
                    java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), "\\n4lw.commands.whitelist=*\\n",
                            java.nio.file.StandardOpenOption.APPEND);
                    dev.warden.cli.Main.main(new String[] {"server", "--config", args[0]});
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void kazoosOwnDigestMd5SaslTestsPassAgainstWarden() throws Exception {
        assumeInstalled();
        String log = runKazoo("Digest", Map.of());
        assertTrue(log.contains("4 passed"), "all four Digest tests run and pass (none skipped):\n" + log);
    }

    /**
     * kazoo's GSSAPI tests need a KDC of realm KAZOOTEST.ORG with the principals {@code client} and
     * {@code zookeeper/127.0.0.1}, their keytabs in {@code $KRB5_TEST_ENV}, a krb5.conf in
     * {@code $KRB5_CONFIG} that both MIT's kinit (which the tests call) and the server's JVM read,
     * and python3-kerberos. The KDC is Apache Kerby's, started here; the credential cache is a file
     * of this test's, so nothing outside its directory changes.
     */
    @Test
    void kazoosOwnGssapiSaslTestsPassAgainstWarden() throws Exception {
        assumeInstalled();
        boolean kerberos = Files.isExecutable(Path.of("/usr/bin/kinit"))
                && new ProcessBuilder(PYTHON, "-c", "import kerberos").start().waitFor() == 0;
        Assumptions.assumeTrue(kerberos, "kazoo's GSSAPI tests need krb5-user (kinit) and python3-kerberos"
                + " (apt-get install, as root); skipped");
        Path env = Files.createDirectories(dir.resolve("krb5"));
        SimpleKdcServer kdc = new SimpleKdcServer();
        kdc.setWorkDir(Files.createDirectories(env.resolve("kdc")).toFile());
        kdc.setKdcRealm(KAZOO_REALM);
        kdc.setKdcHost("127.0.0.1");
        kdc.setAllowUdp(false);
        kdc.setKdcTcpPort(FreePorts.pick());
        kdc.init();
        kdc.start();
        try {
            kdc.createAndExportPrincipals(env.resolve("client.keytab").toFile(), "client");
            kdc.createAndExportPrincipals(env.resolve("server.keytab").toFile(), "zookeeper/127.0.0.1");
            Path krb5Conf = Files.writeString(env.resolve("krb5.conf"), krb5Conf(kdc.getKdcTcpPort()));
            String log = runKazoo("GSSAPI", Map.of(
                    "KRB5_TEST_ENV", env.toString(),
                    "KRB5_CONFIG", krb5Conf.toString(),
                    "KRB5CCNAME", "FILE:" + env.resolve("ccache")));
            assertTrue(log.contains("2 passed"), "both GSSAPI tests run and pass (none skipped):\n" + log);
        } finally {
            kdc.stop();
        }
    }

    /**
     * TCP only (Kerby listens on TCP here), no DNS: the tests name the server by address, and its
     * principal is {@code zookeeper/127.0.0.1}, so the host must not be canonicalised.
     */
    private static String krb5Conf(int kdcPort) {
        return "[libdefaults]\n"
                + "  default_realm = " + KAZOO_REALM + "\n"
                + "  udp_preference_limit = 1\n"
                + "  dns_lookup_realm = false\n"
                + "  dns_lookup_kdc = false\n"
                + "  dns_canonicalize_hostname = false\n"
                + "  rdns = false\n"
                + "[realms]\n"
                + "  " + KAZOO_REALM + " = {\n"
                + "    kdc = 127.0.0.1:" + kdcPort + "\n"
                + "  }\n"
                + "[domain_realm]\n"
                + "  127.0.0.1 = " + KAZOO_REALM + "\n";
    }

    /** Runs kazoo's test_sasl.py tests whose names contain {@code selection}; returns pytest's output. */
    private String runKazoo(String selection, Map<String, String> environment) throws Exception {
        Path launcherDir = compileLauncher();
        String classPath = launcherDir + File.pathSeparator + Arrays.stream(
                        System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("org/apache/zookeeper/zookeeper/"))
                .collect(Collectors.joining(File.pathSeparator));
        Path runDir = Files.createDirectories(dir.resolve("run-" + selection));
        ProcessBuilder pytest = new ProcessBuilder(PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                SUITE.toString(), "-k", selection)
                .directory(runDir.toFile())
                .redirectErrorStream(true);
        pytest.environment().put("ZOOKEEPER_CLASSPATH", classPath);
        pytest.environment().put("ZOOKEEPER_VERSION", "3.4.14");
        pytest.environment().put("ZOOKEEPER_CLUSTER_SIZE", "1");
        pytest.environment().put("ZOOKEEPER_PORT_OFFSET", Integer.toString(30_000 + new Random().nextInt(20_000)));
        pytest.environment().putAll(environment);
        Process process = pytest.start();
        Path output = dir.resolve("pytest-" + selection + ".log");
        Thread copier = new Thread(() -> {
            try {
                Files.copy(process.getInputStream(), output);
            } catch (IOException ignored) {
                // the output is only for the failure message
            }
        });
        copier.start();
        boolean finished = process.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        copier.join(5_000);
        String log = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
        assertTrue(finished, "kazoo's tests did not finish within " + TIMEOUT_S + " s:\n" + log);
        assertEquals(0, process.exitValue(), log);
        System.out.println("kazoo test_sasl.py -k " + selection + ": "
                + log.strip().lines().reduce((first, last) -> last).orElse(""));
        return log;
    }

    private static void assumeInstalled() throws Exception {
        boolean present = Files.isExecutable(Path.of(PYTHON)) && Files.isReadable(SUITE)
                && new ProcessBuilder(PYTHON, "-c", "import kazoo, puresasl, pytest").start().waitFor() == 0;
        Assumptions.assumeTrue(present, "kazoo's SASL tests need python3-kazoo, python3-pure-sasl and python3-pytest"
                + " (apt-get install, as root); skipped");
    }

    private Path compileLauncher() throws IOException {
        Path source = dir.resolve("src/org/apache/zookeeper/server/quorum/QuorumPeerMain.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, LAUNCHER);
        Path classes = Files.createDirectories(dir.resolve("launcher"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), source.toString()));
        assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "the launcher compiles");
        return classes;
    }
}
