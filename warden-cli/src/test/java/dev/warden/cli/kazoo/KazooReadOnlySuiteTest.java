package dev.warden.cli.kazoo;

import java.nio.file.Path;
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
 * kazoo asks {@code envi} for the version. The PYTHONPATH holds {@link KazooHarness#pythonPath}'s
 * {@code mock} stand-in and its plugin that waits until every member serves. pytest runs with
 * {@code -s}, so a failure shows the members' logs. Skipped, saying so, where python3-kazoo or python3-pytest is missing.
 */
class KazooReadOnlySuiteTest {
    private static final Path SUITE = Path.of("/usr/lib/python3/dist-packages/kazoo/tests/test_connection.py");

    @TempDir
    Path dir;

    @Test
    void kazoosOwnReadOnlyModeTestPassesAgainstAWardenEnsemble() throws Exception {
        KazooHarness.runEnsembleSuite(dir, SUITE, "TestReadOnlyMode", "3.4.14", 1);
    }
}
