package dev.warden.cli.kazoo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kazoo's own read-only mode test (Debian's python3-kazoo ships it: test_connection.py's
 * TestReadOnlyMode, run by pytest) against a three-member Warden ensemble. kazoo's harness starts
 * each member as {@code java -Dreadonlymode.enabled=true ... QuorumPeerMain zoo.cfg}; here that
 * class, compiled at test time, runs {@code warden server --config zoo.cfg} in the same JVM, so
 * the system property reaches Warden's config loader as it reaches ZooKeeper. The test stops two
 * members, expects its {@code read_only=True} client in CONNECTED_RO within six seconds, reads,
 * expects NotReadOnlyCallError from a create, and starts the members again. The harness is told
 * ZooKeeper 3.4.14 (no 3.5+ keys in zoo.cfg); the launcher allows every four-letter word because
 * kazoo asks {@code envi} for the version. Two stand-ins on the PYTHONPATH: a one-line {@code mock}
 * module for python3-mock, and a pytest plugin that starts the cluster and waits until every
 * member serves (see {@link #ENSEMBLE_READY}). pytest runs with {@code -s}, so a failure shows
 * the members' logs. Skipped, saying so, where python3-kazoo or python3-pytest is missing.
 */
class KazooReadOnlySuiteTest {
    private static final Path SUITE = Path.of("/usr/lib/python3/dist-packages/kazoo/tests/test_connection.py");

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

    @TempDir
    Path dir;

    @Test
    void kazoosOwnReadOnlyModeTestPassesAgainstAWardenEnsemble() throws Exception {
        assumeInstalled();
        String log = KazooHarness.runPytest(dir, "test_connection.py-TestReadOnlyMode", 3,
                List.of("-s", "-p", "warden_ensemble_ready", SUITE.toString(), "-k", "TestReadOnlyMode"),
                Map.of("PYTHONPATH", mockShim().toString()));
        assertTrue(log.contains("1 passed"), "the read-only test runs and passes (not skipped):\n" + log);
    }

    private static void assumeInstalled() throws Exception {
        boolean present = Files.isExecutable(Path.of(KazooHarness.PYTHON)) && Files.isReadable(SUITE)
                && new ProcessBuilder(KazooHarness.PYTHON, "-c", "import kazoo, pytest").start().waitFor() == 0;
        Assumptions.assumeTrue(present, "kazoo's read-only test needs python3-kazoo and python3-pytest"
                + " (apt-get install, as root); skipped");
    }

    /**
     * test_connection.py imports the old {@code mock} package (python3-mock), which is only the
     * standard library's unittest.mock under another name: a one-line module stands in for it.
     */
    private Path mockShim() throws IOException {
        Path shim = Files.createDirectories(dir.resolve("pythonpath"));
        Files.writeString(shim.resolve("mock.py"), "from unittest.mock import *  # noqa: F401,F403\n");
        Files.writeString(shim.resolve("warden_ensemble_ready.py"), ENSEMBLE_READY);
        return shim;
    }
}
