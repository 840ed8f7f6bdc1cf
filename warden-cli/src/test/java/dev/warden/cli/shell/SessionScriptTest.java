package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The shell itself: scripts, arguments, exit codes, history/redo, connect/close, usage errors. */
class SessionScriptTest extends ScriptTestBase {

    @Test
    void commentsAndBlankLinesAreSkippedAndASuccessfulScriptExitsZero() {
        ShellRun run = server.script("# set up\n\n   \ncreate /c1 x  \n  # done\nget /c1\n");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("Created /c1\nx\n", run.out());
        assertEquals("", run.err());
    }

    @Test
    void aFailureInTheMiddleDoesNotStopTheScriptButSetsTheExitCode() {
        ShellRun run = server.script("get /missing-m\ncreate /after-failure\n");
        assertEquals(1, run.exitCode(), run::toString);
        assertEquals("Node does not exist: /missing-m\n", run.err());
        assertEquals("Created /after-failure\n", run.out());
    }

    @Test
    void unknownCommandIsAnError() {
        ShellRun run = server.script("frobnicate /x\n");
        assertEquals(1, run.exitCode(), run::toString);
        assertEquals("Unknown command: frobnicate (type help for the list)\n", run.err());
    }

    @Test
    void usageErrorsPrintTheMessageAndTheUsageLine() {
        ShellRun missing = server.script("ls\n");
        assertEquals(1, missing.exitCode());
        assertEquals("Missing arguments\nUsage: ls [-s] [-w] [-R] path\n", missing.err());

        ShellRun extra = server.script("get /a /b\n");
        assertEquals("Too many arguments\nUsage: get [-s] [-w] path\n", extra.err());

        ShellRun badOption = server.script("ls -x /\n");
        assertEquals("Unrecognized option: -x\nUsage: ls [-s] [-w] [-R] path\n", badOption.err());

        ShellRun quote = server.script("set /a 'unclosed\n");
        assertTrue(quote.err().startsWith("Unbalanced quote"), quote::toString);
    }

    @Test
    void dataStartingWithADashNeedsDoubleDash() {
        ShellRun run = server.script("create /dash\nset /dash -- -x\nget /dash\nset /dash -7\nget /dash\n");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("Created /dash\n-x\n-7\n", run.out());
    }

    @Test
    void trailingArgumentsRunOneCommandAndIgnoreStdin() {
        ShellRun create = server.script("create /ignored\n", "create", "/argv", "two words");
        assertEquals(0, create.exitCode(), create::toString);
        assertEquals("Created /argv\n", create.out());

        ShellRun get = server.script("", "get", "/argv");
        assertEquals("two words\n", get.out());

        ShellRun ls = server.script("", "ls", "-R", "/argv");
        assertEquals("/argv\n", ls.out());

        ShellRun quoted = server.script("", "ls -R /argv");
        assertEquals(0, quoted.exitCode(), quoted::toString);
        assertEquals("/argv\n", quoted.out(), "one quoted argument is a whole command line");

        ShellRun missing = server.script("", "get", "/ignored");
        assertEquals(1, missing.exitCode());
        assertEquals("Node does not exist: /ignored\n", missing.err());
    }

    @Test
    void quitAndExitStopReadingTheScript() {
        ShellRun quit = server.script("create /q1\nquit\nget /not-run\n");
        assertEquals(0, quit.exitCode(), quit::toString);
        assertEquals("Created /q1\n", quit.out());
        ShellRun exit = server.script("exit\nget /not-run\n");
        assertEquals(0, exit.exitCode(), exit::toString);
    }

    @Test
    void historyListsNumberedCommandsAndRedoRepeatsOne() {
        ShellRun run = server.script("create /h\nset /h one\nget /h\nset /h two\nredo 2\nhistory\n");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("Created /h\none\ntwo\n0 - create /h\n1 - set /h one\n2 - get /h\n3 - set /h two\n4 - get /h\n5 - history\n",
                run.out());
    }

    @Test
    void historyShowsOnlyTheLastElevenCommands() {
        ShellRun run = server.script("whoami\n".repeat(14) + "history\n");
        String history = run.out().substring(run.out().indexOf("4 - whoami"));
        assertEquals(11, history.lines().count(), run::toString);
        assertTrue(history.endsWith("14 - history\n"), run::toString);
    }

    @Test
    void redoErrors() {
        ShellRun range = server.script("redo 5\n");
        assertEquals(1, range.exitCode());
        assertEquals("Command index out of range: 5\n", range.err());
        ShellRun redoRedo = server.script("redo 9\nredo 0\n");
        assertTrue(redoRedo.err().endsWith("No redoing redos\n"), redoRedo::toString);
        ShellRun notNumber = server.script("redo x\n");
        assertTrue(notNumber.err().startsWith("Command number must be an integer: x"), notNumber::toString);
    }

    @Test
    void closeDisconnectsAndConnectReconnects() {
        ShellRun run = server.script("create -e /eph-close\nclose\nls /\nconnect\nstat /eph-close\nconnect "
                + server.connectString() + "\ncreate /reconnected\n");
        assertEquals(1, run.exitCode(), run::toString);
        // close ended the session, so its ephemeral is gone for the new one
        assertEquals("Not connected\nNode does not exist: /eph-close\n", run.err());
        assertTrue(run.out().endsWith("Created /reconnected\n"), run::toString);
    }

    @Test
    void chrootInTheServerStringScopesEveryPath() {
        ShellRun setup = server.script("create /jail\n");
        assertEquals(0, setup.exitCode(), setup::toString);
        ShellRun inside = ShellRun.of("create /a in\nls /\ngetEphemerals\n", "-server", server.connectString() + "/jail");
        assertEquals(0, inside.exitCode(), inside::toString);
        assertEquals("Created /a\n[a]\n[]\n", inside.out());
        assertEquals("in\n", server.script("get /jail/a\n").out());
    }

    @Test
    void unreachableServerFailsEveryCommand() {
        ShellRun run = ShellRun.of("ls /\n", "-server", "127.0.0.1:1", "-timeout", "500");
        assertEquals(1, run.exitCode(), run::toString);
        assertEquals("Unable to connect to 127.0.0.1:1: no server answered within 1500 ms (is one running there?)\n"
                + "Not connected\n", run.err());
    }

    @Test
    void helpListsEveryCommandUsage() {
        ShellRun run = server.script("help\n");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().startsWith(Shell.SYNOPSIS + "\n"), run::toString);
        for (String command : new String[] {"connect", "ls [-s] [-w] [-R] path", "get [-s] [-w] path",
                "set [-s] [-v version] path data", "create [-s] [-e] [-c] [-t ttl] path [data] [acl]",
                "delete [-v version] path", "deleteall path", "stat [-w] path", "sync path", "getAcl [-s] path",
                "setAcl [-s] [-v version] [-R] path acl", "addauth scheme auth", "addWatch [-m mode] path",
                "removewatches path [-c|-d|-a] [-l]", "getEphemerals [path]", "getAllChildrenNumber path", "whoami",
                "history", "redo cmdno", "quit", "exit", "close", "help"}) {
            assertTrue(run.out().contains("\t" + command), command);
        }
    }

    @Test
    void badShellOptionsAreUsageErrors() {
        ShellRun run = ShellRun.of("", "-timeout", "0");
        assertEquals(2, run.exitCode(), run::toString);
        ShellRun notANumber = ShellRun.of("", "-timeout", "soon");
        assertEquals(2, notANumber.exitCode(), notANumber::toString);
    }
}
