package dev.warden.cli.kazoo;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kazoo's own reconfiguration tests (Debian's python3-kazoo ships them: test_client.py's
 * TestReconfig, run by pytest) against a three-member Warden ensemble. The harness is told
 * ZooKeeper 3.5.10, so, as it does for a real 3.5+ ensemble, it writes {@code reconfigEnabled=true}
 * and the four-letter-word whitelist into each zoo.cfg and starts each member with
 * {@code -Dzookeeper.DigestAuthenticationProvider.superDigest} for its super user. The three tests:
 * a reconfig without credentials is refused with NoAuthError; with the super user, an observer at
 * ports nobody listens on is added and removed again, and a stale {@code from_config} sent without
 * credentials gets BadVersionError (ZooKeeper checks the version before the permission); a
 * malformed joining line gets BadArgumentsError. Skipped, saying so, where python3-kazoo or
 * python3-pytest is missing.
 */
class KazooReconfigSuiteTest {
    private static final Path SUITE = Path.of("/usr/lib/python3/dist-packages/kazoo/tests/test_client.py");

    @TempDir
    Path dir;

    @Test
    void kazoosOwnReconfigTestsPassAgainstAWardenEnsemble() throws Exception {
        KazooHarness.runEnsembleSuite(dir, SUITE, "TestReconfig", "3.5.10", 3);
    }
}
