package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Scripted sessions for the znode commands, each in its own subtree of one shared server. */
class NodeCommandsScriptTest extends ScriptTestBase {
    private static final String STAT_LINES = "cZxid = 0x[0-9a-f]+\nctime = .+\nmZxid = 0x[0-9a-f]+\nmtime = .+\n"
            + "pZxid = 0x[0-9a-f]+\ncversion = -?\\d+\ndataVersion = \\d+\naclVersion = \\d+\n"
            + "ephemeralOwner = 0x[0-9a-f]+\ndataLength = \\d+\nnumChildren = \\d+\n";

    @Test
    void createThenLsPrintsSortedChildrenInBrackets() {
        ShellRun run = ok("create /ls\ncreate /ls/b\ncreate /ls/a\nls /ls\n");
        assertEquals("Created /ls\nCreated /ls/b\nCreated /ls/a\n[a, b]\n", run.out());
    }

    @Test
    void lsOfLeafPrintsEmptyBracketsAndWithStatAddsStatLines() {
        ShellRun run = ok("create /lss x\nls -s /lss\n");
        assertTrue(run.out().matches("Created /lss\n\\[\\]\n" + STAT_LINES), run::toString);
        assertTrue(run.out().contains("numChildren = 0\n"), run::toString);
    }

    @Test
    void lsRecursivePrintsEveryPathParentsFirst() {
        ShellRun run = ok("create /lr\ncreate /lr/b\ncreate /lr/a\ncreate /lr/a/x\nls -R /lr\n");
        assertTrue(run.out().endsWith("/lr\n/lr/a\n/lr/a/x\n/lr/b\n"), run::toString);
    }

    @Test
    void getPrintsDataAndNullForANodeCreatedWithoutData() {
        ShellRun run = ok("create /g 'hello world'\nget /g\ncreate /g2\nget /g2\n");
        assertEquals("Created /g\nhello world\nCreated /g2\nnull\n", run.out());
    }

    @Test
    void getWithStatPrintsDataThenStat() {
        ShellRun run = ok("create /gs abc\nget -s /gs\n");
        assertTrue(run.out().matches("Created /gs\nabc\n" + STAT_LINES), run::toString);
        assertTrue(run.out().contains("dataLength = 3\n"), run::toString);
        assertTrue(run.out().contains("dataVersion = 0\n"), run::toString);
    }

    @Test
    void setWithMatchingVersionSucceedsAndPrintsStatWithS() {
        ShellRun run = ok("create /s one\nset -s -v 0 /s two\nget /s\n");
        assertTrue(run.out().contains("dataVersion = 1\n"), run::toString);
        assertTrue(run.out().endsWith("two\n"), run::toString);
    }

    @Test
    void setWithWrongVersionFails() {
        ShellRun run = failing("create /sv one\nset -v 7 /sv two\nget /sv\n", "version No is not valid : /sv\n");
        assertTrue(run.out().endsWith("one\n"), run::toString);
    }

    @Test
    void setOfMissingNodeFails() {
        failing("set /nothing-here x\n", "Node does not exist: /nothing-here\n");
    }

    @Test
    void setWithNonNumericVersionIsAnError() {
        failing("create /svn\nset -v x /svn d\n", "Version must be an integer: x");
    }

    @Test
    void createSequentialAppendsTenDigitCounter() {
        ShellRun run = ok("create /seq\ncreate -s /seq/n- a\ncreate -s /seq/n- b\n");
        assertEquals("Created /seq\nCreated /seq/n-0000000000\nCreated /seq/n-0000000001\n", run.out());
    }

    @Test
    void createEphemeralShowsInGetEphemeralsAndGoesWithTheSession() {
        ShellRun run = ok("create /eph\ncreate -e /eph/e1\ncreate -e -s /eph/q-\ngetEphemerals /eph\nstat /eph/e1\n");
        assertTrue(run.out().contains("[/eph/e1, /eph/q-0000000001]\n"), run::toString);
        assertTrue(!run.out().contains("ephemeralOwner = 0x0\n"), run::toString);
        // the shell's session closed when it exited
        ShellRun after = ok("ls /eph\n");
        assertEquals("[]\n", after.out());
    }

    @Test
    void createExistingNodeFails() {
        failing("create /dup\ncreate /dup\n", "Node already exists: /dup\n");
    }

    @Test
    void createUnderMissingParentFails() {
        failing("create /no/parent\n", "Node does not exist: /no/parent\n");
    }

    @Test
    void createUnderEphemeralFails() {
        failing("create -e /ephp\ncreate /ephp/child\n", "Ephemerals cannot have children: /ephp/child\n");
    }

    @Test
    void createContainerAndTtlNodes() {
        ShellRun run = ok("create -c /cont\ncreate -t 60000 /ttl data\ncreate -s -t 60000 /ttls- data\nget /ttl\n");
        assertEquals("Created /cont\nCreated /ttl\nCreated /ttls-0000000000\ndata\n",
                run.out().replaceAll("/ttls-\\d{10}", "/ttls-0000000000"));
    }

    @Test
    void createRejectsIncompatibleFlags() {
        failing("create -c -e /bad\n", "-c cannot be combined with -s or -e");
        failing("create -t 100 -e /bad\n", "TTLs cannot be used with ephemeral znodes");
        failing("create -t 100 -c /bad\n", "TTLs cannot be used with container znodes");
        failing("create -t soon /bad\n", "TTL must be a number of milliseconds: soon");
        failing("create -t\n", "Missing argument for option: t");
    }

    @Test
    void deleteWithVersionAndItsErrors() {
        ShellRun run = failing("create /d\ncreate /d/c\ndelete /d\ndelete -v 3 /d/c\ndelete -v 0 /d/c\ndelete /d\nls /d\n",
                "Node not empty: /d\nversion No is not valid : /d/c\nNode does not exist: /d\n");
        assertEquals("Created /d\nCreated /d/c\n", run.out());
    }

    @Test
    void deleteAllRemovesTheWholeSubtree() {
        ShellRun run = ok("create /da\ncreate /da/a\ncreate /da/a/b\ncreate /da/c\ncreate /da-sibling\n"
                + "deleteall /da\nls /da-sibling\n");
        assertTrue(run.out().endsWith("[]\n"), run::toString);
        failing("stat /da\n", "Node does not exist: /da\n");
        failing("stat /da/a/b\n", "Node does not exist: /da/a/b\n");
        failing("deleteall /da\n", "Node does not exist: /da\n");
    }

    @Test
    void statPrintsStatLinesAndFailsForMissingNode() {
        ShellRun run = ok("create /st data\nstat /st\n");
        assertTrue(run.out().matches("Created /st\n" + STAT_LINES), run::toString);
        failing("stat /st-missing\n", "Node does not exist: /st-missing\n");
    }

    @Test
    void syncReportsOk() {
        assertEquals("Sync is OK\n", ok("sync /\n").out());
        failing("sync\n", "Usage: sync path");
    }

    @Test
    void getAllChildrenNumberCountsAllDescendants() {
        ShellRun run = ok("create /n\ncreate /n/a\ncreate /n/a/b\ncreate /n/c\ngetAllChildrenNumber /n\n");
        assertTrue(run.out().endsWith("\n3\n"), run::toString);
        failing("getAllChildrenNumber /n-missing\n", "Node does not exist: /n-missing");
    }

    @Test
    void invalidPathsAreReportedNotSent() {
        failing("get nope\n", "path must start with /: nope");
        failing("create /trailing/\n", "path must not end with /");
    }
}
