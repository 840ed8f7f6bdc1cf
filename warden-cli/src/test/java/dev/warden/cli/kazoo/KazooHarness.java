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
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs kazoo's own tests (Debian's python3-kazoo, by pytest) with kazoo's test harness starting
 * Warden instead of ZooKeeper. The harness starts its servers as {@code java -cp
 * $ZOOKEEPER_CLASSPATH ... org.apache.zookeeper.server.quorum.QuorumPeerMain zoo.cfg}; here that
 * class, compiled at test time, starts {@code warden server --config zoo.cfg}, on a class path
 * without ZooKeeper's jar. The harness is told ZooKeeper 3.4.14 unless a suite says otherwise, so
 * it writes no 3.5+ keys; 3.4 answered every four-letter word, and the launcher allows them where
 * the harness did not (kazoo asks {@code envi} for the version).
 */
final class KazooHarness {
    static final String PYTHON = "/usr/bin/python3";
    private static final long TIMEOUT_S = 240;

    private static final String LAUNCHER = """
            package org.apache.zookeeper.server.quorum;

            /** Stands in for ZooKeeper's main class in kazoo's test harness: runs Warden on the same zoo.cfg. */
            public final class QuorumPeerMain {
                public static void main(String[] args) throws Exception {
                    java.nio.file.Path config = java.nio.file.Path.of(args[0]);
                    if (!java.nio.file.Files.readString(config).contains("4lw.commands.whitelist")) {
                        java.nio.file.Files.writeString(config, "\\n4lw.commands.whitelist=*\\n",
                                java.nio.file.StandardOpenOption.APPEND);
                    }
                    dev.warden.cli.Main.main(new String[] {"server", "--config", args[0]});
                }
            }
            """;

    /**
     * A pytest plugin that starts kazoo's global cluster before the tests and waits until every
     * member answers srvr with its mode: three JVMs starting at once on a loaded machine take
     * longer than the harness's fixed two seconds and its client's fifteen. The harness then
     * finds the cluster running and starts nothing again.
     */
    private static final String ENSEMBLE_READY = """
            import socket
            import time

            from kazoo.testing.harness import get_global_cluster


            def srvr(address):
                host, port = address.rsplit(":", 1)
                try:
                    with socket.create_connection((host, int(port)), timeout=5) as sock:
                        sock.sendall(b"srvr")
                        return sock.makefile().read()
                except OSError:
                    return ""


            def pytest_sessionstart(session):
                cluster = get_global_cluster()
                cluster.start()
                deadline = time.time() + 120
                while time.time() < deadline:
                    if all("Mode: " in srvr(member.address) for member in cluster):
                        return
                    time.sleep(0.2)
                raise RuntimeError("the Warden members did not all serve within 120 s")
            """;

    private KazooHarness() {
    }

    /**
     * Skips the calling test, saying why, unless {@code suite} is readable and Debian's python3 can
     * import every one of {@code modules} (comma separated, as in an import line); {@code packages}
     * names the Debian packages that bring them.
     */
    static void assumeInstalled(Path suite, String modules, String packages) throws Exception {
        boolean present = Files.isExecutable(Path.of(PYTHON)) && Files.isReadable(suite)
                && new ProcessBuilder(PYTHON, "-c", "import " + modules).start().waitFor() == 0;
        Assumptions.assumeTrue(present, suite.getFileName() + " needs " + packages
                + " (apt-get install, as root); skipped");
    }

    /**
     * Runs {@code python3 -m pytest -q -p no:cacheprovider <pytestArgs>} in a directory of its own
     * under {@code dir}, with the harness's variables for {@code members} servers and
     * {@code environment} added; asserts it finished in time and passed, and returns its output.
     */
    static String runPytest(Path dir, String name, int members, List<String> pytestArgs,
                            Map<String, String> environment) throws Exception {
        List<String> command = new ArrayList<>(List.of(PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider"));
        command.addAll(pytestArgs);
        ProcessBuilder pytest = new ProcessBuilder(command)
                .directory(Files.createDirectories(dir.resolve("run-" + name)).toFile())
                .redirectErrorStream(true);
        pytest.environment().put("ZOOKEEPER_CLASSPATH", harnessClassPath(dir));
        pytest.environment().put("ZOOKEEPER_VERSION", "3.4.14");
        pytest.environment().put("ZOOKEEPER_CLUSTER_SIZE", Integer.toString(members));
        pytest.environment().put("ZOOKEEPER_PORT_OFFSET", Integer.toString(portOffset()));
        pytest.environment().putAll(environment);
        Process process = pytest.start();
        Path output = dir.resolve("pytest-" + name + ".log");
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
        System.out.println("kazoo " + name + ": "
                + log.lines().filter(line -> line.contains(" passed")).findFirst().orElse(""));
        return log;
    }

    /**
     * Runs the test class {@code testClass} of kazoo's test file {@code suite} against a
     * three-member Warden ensemble, with the plugin that waits until every member serves (so
     * pytest's {@code -s} output shows the members' logs on a failure), the harness told
     * {@code zookeeperVersion}; asserts pytest reports {@code passed} tests passed (none skipped)
     * and returns its output.
     */
    static String runEnsembleSuite(Path dir, Path suite, String testClass, String zookeeperVersion, int passed)
            throws Exception {
        assumeInstalled(suite, "kazoo, pytest", "python3-kazoo and python3-pytest");
        String log = runPytest(dir, suite.getFileName() + "-" + testClass, 3,
                List.of("-s", "-p", "warden_ensemble_ready", suite.toString(), "-k", testClass),
                Map.of("PYTHONPATH", pythonPath(dir).toString(), "ZOOKEEPER_VERSION", zookeeperVersion));
        assertTrue(log.contains(passed + " passed"), "kazoo's " + testClass + " runs and its " + passed
                + " tests pass, none skipped:\n" + log);
        return log;
    }

    /**
     * The harness's first port: its members listen on the 10 * members ports from there. They are
     * taken below the kernel's ephemeral range (ip_local_port_range), where no outgoing connection
     * of this machine can hold one: a busy machine with thousands of connections open would
     * otherwise, now and then, hold a port the harness wants, and the member would not start.
     */
    private static int portOffset() {
        int ephemeralFirst = 32_768;
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            ephemeralFirst = Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException unreadable) {
            // Linux's default range starts at 32768
        }
        int lowest = 10_000;
        int highest = Math.max(lowest + 1_000, ephemeralFirst - 100);
        return lowest + new Random().nextInt(highest - lowest);
    }

    /** The launcher, compiled into {@code dir}, before this JVM's class path without ZooKeeper's jar. */
    private static String harnessClassPath(Path dir) throws IOException {
        Path source = dir.resolve("launcher-src/org/apache/zookeeper/server/quorum/QuorumPeerMain.java");
        Path classes = dir.resolve("launcher");
        if (!Files.isDirectory(classes)) {
            Files.createDirectories(source.getParent());
            Files.writeString(source, LAUNCHER);
            Files.createDirectories(classes);
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            assertEquals(0, javac.run(null, null, null, "-d", classes.toString(), "-cp",
                    System.getProperty("java.class.path"), source.toString()), "the launcher compiles");
        }
        return classes + File.pathSeparator + Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("org/apache/zookeeper/zookeeper/"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * A PYTHONPATH directory under {@code dir} with two modules: {@code warden_ensemble_ready}
     * (load it with {@code -p warden_ensemble_ready}; see {@link #ENSEMBLE_READY}), and
     * {@code mock}: kazoo's test_connection.py and test_client.py import the old {@code mock}
     * package (python3-mock), which is only the standard library's unittest.mock under another
     * name, so a one-line module stands in for it where python3-mock is not installed.
     */
    static Path pythonPath(Path dir) throws IOException {
        Path shim = Files.createDirectories(dir.resolve("pythonpath"));
        Files.writeString(shim.resolve("mock.py"), "from unittest.mock import *  # noqa: F401,F403\n");
        Files.writeString(shim.resolve("warden_ensemble_ready.py"), ENSEMBLE_READY);
        return shim;
    }
}
