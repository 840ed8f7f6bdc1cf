package dev.warden.cli.kazoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kazoo's own SASL DIGEST-MD5 tests (Debian's python3-kazoo ships them, run by pytest) against
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
        Path launcherDir = compileLauncher();
        String classPath = launcherDir + File.pathSeparator + Arrays.stream(
                        System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("org/apache/zookeeper/zookeeper/"))
                .collect(Collectors.joining(File.pathSeparator));
        ProcessBuilder pytest = new ProcessBuilder(PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                SUITE.toString(), "-k", "Digest")
                .directory(Files.createDirectories(dir.resolve("run")).toFile())
                .redirectErrorStream(true);
        pytest.environment().put("ZOOKEEPER_CLASSPATH", classPath);
        pytest.environment().put("ZOOKEEPER_VERSION", "3.4.14");
        pytest.environment().put("ZOOKEEPER_CLUSTER_SIZE", "1");
        pytest.environment().put("ZOOKEEPER_PORT_OFFSET", Integer.toString(30_000 + new Random().nextInt(20_000)));
        Process process = pytest.start();
        Path output = dir.resolve("pytest.log");
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
        assertTrue(log.contains("4 passed"), "all four Digest tests run and pass (none skipped):\n" + log);
        System.out.println("kazoo test_sasl.py -k Digest: " + log.strip().lines().reduce((first, last) -> last).orElse(""));
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
