package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** One Warden server per test class, and scripted shell runs against it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ScriptTestBase {
    ServerFixture server;

    @BeforeAll
    void start(@TempDir Path dataDir) throws IOException {
        server = new ServerFixture(dataDir);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    /** Runs a script that must succeed with nothing on stderr. */
    ShellRun ok(String script) {
        ShellRun run = server.script(script);
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("", run.err(), run::toString);
        return run;
    }

    /** Runs a script that must fail with expectedErr somewhere on stderr. */
    ShellRun failing(String script, String expectedErr) {
        ShellRun run = server.script(script);
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains(expectedErr), run::toString);
        return run;
    }
}
